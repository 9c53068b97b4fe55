// What a third party writes on top of the generated types (@rally/shared/api/rally-api): a typed
// client with openapi-fetch. Paths, parameters, bodies (JSON and multipart) and answers
// are checked by the compiler; the openapi test runs these calls against a real server.
import type { paths } from '@rally/shared/api/rally-api';
import createClient from 'openapi-fetch';

export type RallyClient = ReturnType<typeof rallyClient>;
export type Registration =
  paths['/api/auth/register-with-uploads']['post']['requestBody']['content']['multipart/form-data'];
export type UserRecord = NonNullable<
  paths['/api/auth/login']['post']['responses'][200]['content']['application/json']['data']
>['user'];

export function rallyClient(baseUrl: string, token?: string) {
  return createClient<paths>({ baseUrl, headers: token ? { Authorization: `Bearer ${token}` } : {} });
}

/** Multipart bodies: text parts as text, binary parts as files. */
function formData(body: Record<string, unknown>): FormData {
  const form = new FormData();
  for (const [name, value] of Object.entries(body)) {
    if (value === undefined || value === null) continue;
    form.append(name, value instanceof Blob ? value : String(value));
  }
  return form;
}

/** Registers a rider with a profile image and a receipt; answers the session token and the user. */
export async function register(
  client: RallyClient,
  fields: Omit<Registration, 'profileImage' | 'paymentReceipt'>,
  files: { profileImage?: Blob; paymentReceipt?: Blob },
): Promise<{ token: string; user: UserRecord }> {
  const { data, error, response } = await client.POST('/api/auth/register-with-uploads', {
    // The generated type of a binary part is a string; a Blob is what goes on the wire.
    body: { ...fields, ...files } as unknown as Registration,
    bodySerializer: (body) => formData(body as Record<string, unknown>),
  });
  if (error) throw new Error(`${response.status} ${error.message}`);
  return { token: data.token, user: data.data.user };
}

export async function login(client: RallyClient, email: string, password: string): Promise<string> {
  const { data, error, response } = await client.POST('/api/auth/login', { body: { email, password } });
  if (error) throw new Error(`${response.status} ${error.message}`);
  return data.token;
}

export async function takenNumbers(client: RallyClient): Promise<number[]> {
  const { data, error } = await client.GET('/api/rider-numbers/taken');
  if (error) throw new Error(error.message);
  return data.data.takenNumbers;
}

export async function publicProfile(client: RallyClient, id: string) {
  const { data, error, response } = await client.GET('/api/users/{id}/profile', { params: { path: { id } } });
  if (error) throw new Error(`${response.status} ${error.message}`);
  return data.data;
}

/** A staff call: the verification queue, which needs the `verify_users` permission. */
export async function pendingVerifications(client: RallyClient, page = 1) {
  const { data, error, response } = await client.GET('/api/admin/verifications/pending', {
    params: { query: { page, limit: 20 } },
  });
  if (error) throw new Error(`${response.status} ${error.message}`);
  return data.data;
}
