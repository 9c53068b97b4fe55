// Holds every API test's traffic to the OpenAPI document the server publishes
// (/api/docs/json). buildTestApp wraps `app.inject` with `checkExchange`: a call the
// document does not describe (unknown path, missing token, undeclared body or content
// type, a body or parameter its schemas refuse) must be refused by the server with a
// declared 4xx error envelope, and every answer must have a declared status, a declared
// content type and a body that matches its schema. Anything else fails the test that
// made the call. Routing, parameter and schema validation are openapi-backend's (ajv);
// the document is compiled once per process and each operation's validators on first use.
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import addFormats from 'ajv-formats';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { type Document, OpenAPIBackend, type Operation } from 'openapi-backend';

type Headers = Record<string, string | string[] | number | undefined>;
type Json = Record<string, unknown>;

interface MediaType {
  schema?: Json;
}
interface ResponseObject {
  content?: Record<string, MediaType>;
}

export class OpenApiViolation extends Error {
  constructor(
    readonly call: string,
    readonly problems: string[],
  ) {
    super(`${call} does not keep to the OpenAPI document:\n  - ${problems.join('\n  - ')}`);
    this.name = 'OpenApiViolation';
  }
}

const compiled = new Map<string, Promise<OpenAPIBackend>>();
const byObject = new WeakMap<object, Promise<OpenAPIBackend>>();

/** One compiled document per distinct document text in this process (apps of a test file share it). */
function backendFor(document: object): Promise<OpenAPIBackend> {
  const known = byObject.get(document);
  if (known) return known;
  const text = JSON.stringify(document);
  let backend = compiled.get(text);
  if (!backend) {
    const api = new OpenAPIBackend({
      definition: JSON.parse(text) as Document,
      quick: true,
      strict: false,
      validate: true,
      ajvOpts: { strict: false, allErrors: true },
      // Formats the document uses (uuid, email, date-time) are checked, as Prism checks them.
      customizeAjv: (ajv) => {
        addFormats(ajv);
        return ajv;
      },
    });
    backend = api.init().then((ready) => {
      // openapi-backend flattens the whole document again (lodash) on every matchOperation,
      // twice: a tenth of the fuzz test's CPU. The document never changes once loaded.
      const operations = ready.router.getOperations();
      ready.router.getOperations = () => operations;
      return ready;
    });
    compiled.set(text, backend);
  }
  byObject.set(document, backend);
  return backend;
}

function header(headers: Headers, name: string): string | undefined {
  const value = headers[name] ?? headers[name.toLowerCase()];
  if (value === undefined) return undefined;
  return Array.isArray(value) ? value[0] : String(value);
}

function lowerCaseKeys(headers: Headers | undefined): Headers {
  const out: Headers = {};
  for (const [k, v] of Object.entries(headers ?? {})) out[k.toLowerCase()] = v;
  return out;
}

function mediaTypeOf(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

/** The request as light-my-request sends it: objects become JSON. */
function requestPayload(opts: InjectOptions, headers: Headers): { bytes: Buffer | null; contentType: string } {
  const raw = opts.payload ?? opts.body;
  let contentType = header(headers, 'content-type');
  if (raw === undefined || raw === null) return { bytes: null, contentType: mediaTypeOf(contentType) };
  let bytes: Buffer;
  if (Buffer.isBuffer(raw)) bytes = raw;
  else if (typeof raw === 'string') bytes = Buffer.from(raw);
  else if (typeof raw === 'object' && typeof (raw as { pipe?: unknown }).pipe === 'function') {
    throw new Error('openapi-validation: stream payloads are not supported; pass a Buffer');
  } else {
    bytes = Buffer.from(JSON.stringify(raw));
    contentType ??= 'application/json';
  }
  return { bytes: bytes.length > 0 ? bytes : null, contentType: mediaTypeOf(contentType) };
}

/** Text parts are text on the wire; the schema types them (a rider number is an integer). */
function coerceField(value: string, schema: Json | undefined): unknown {
  const type = schema?.type;
  if ((type === 'integer' || type === 'number') && value.trim() !== '' && Number.isFinite(Number(value))) {
    return Number(value);
  }
  if (type === 'boolean' && (value === 'true' || value === 'false')) return value === 'true';
  return value;
}

async function multipartBody(bytes: Buffer, contentTypeHeader: string, media: MediaType, problems: string[]) {
  let form: FormData;
  try {
    form = await new Response(new Uint8Array(bytes), { headers: { 'content-type': contentTypeHeader } }).formData();
  } catch {
    problems.push('the multipart body cannot be parsed');
    return undefined;
  }
  const properties = (media.schema?.properties ?? {}) as Record<string, Json>;
  const body: Record<string, unknown> = {};
  for (const [name, value] of form.entries()) {
    if (name in body) problems.push(`part ${name} is sent more than once`);
    const property = properties[name];
    if (typeof value === 'string') {
      if (property?.format === 'binary') problems.push(`part ${name} must be a file`);
      body[name] = coerceField(value, property);
      continue;
    }
    if (property?.format !== 'binary') {
      problems.push(`file part ${name} is not declared`);
      continue;
    }
    // The part's own Content-Type is not checked: the server ignores it and reads the
    // file's type from its bytes, as the document says.
    // One character per byte, so the declared maxLength bounds the file's size.
    body[name] = Buffer.from(await value.arrayBuffer()).toString('latin1');
  }
  return body;
}

function describeErrors(errors: { instancePath?: string; message?: string }[] | null | undefined): string {
  return (errors ?? [])
    .slice(0, 5)
    .map((e) => `${e.instancePath || '(root)'} ${e.message ?? ''}`.trim())
    .join('; ');
}

function isErrorEnvelope(body: unknown): boolean {
  const b = body as { success?: unknown; message?: unknown; code?: unknown } | null;
  return (
    !!b && b.success === false && typeof b.message === 'string' && (b.code === undefined || typeof b.code === 'string')
  );
}

/** What is wrong with one request and its answer, measured against the document. */
/** The answer's text, decompressed when the route sent it encoded (the public tracker does). */
function decodedBody(res: LightMyRequestResponse): string {
  const encoding = res.headers['content-encoding'];
  if (encoding === 'gzip') return gunzipSync(res.rawPayload).toString();
  if (encoding === 'br') return brotliDecompressSync(res.rawPayload).toString();
  return res.body;
}

/** What is wrong with a call, measured against its operation in the document. */
async function requestProblemsOf(
  api: OpenAPIBackend,
  operation: Operation,
  opts: InjectOptions,
  method: string,
  url: URL,
  headers: Headers,
  query: Record<string, string | string[]>,
): Promise<string[]> {
  const requestProblems: string[] = [];
  const security = (operation.security ?? (api.document as { security?: unknown[] }).security ?? []) as Record<
    string,
    unknown
  >[];
  const needsBearer = security.length > 0 && !security.some((s) => Object.keys(s).length === 0);
  const authorization = header(headers, 'authorization');
  if (needsBearer && !/^Bearer\s+\S+/i.test(authorization ?? '')) requestProblems.push('no bearer token');

  const { bytes, contentType } = requestPayload(opts, headers);
  const requestBody = operation.requestBody as { required?: boolean; content?: Record<string, MediaType> } | undefined;
  let body: unknown;
  if (bytes) {
    const media = requestBody?.content?.[contentType];
    // An operation that declares no body ignores one, as it ignores undeclared query parameters.
    if (!requestBody) body = undefined;
    else if (!media) {
      requestProblems.push(
        `body of type ${contentType || '(none)'}; declared: ${Object.keys(requestBody.content ?? {}).join(', ')}`,
      );
    } else if (contentType === 'application/json') {
      try {
        body = JSON.parse(bytes.toString());
      } catch {
        requestProblems.push('the JSON body does not parse');
      }
    } else if (contentType === 'multipart/form-data') {
      body = await multipartBody(bytes, header(headers, 'content-type') ?? '', media, requestProblems);
    }
  } else if (requestBody?.required) {
    requestProblems.push('the operation requires a body');
  }
  // OpenAPI names the parameters an operation reads; others are not errors (the server ignores them).
  const declaredQuery = new Set(
    ((operation.parameters ?? []) as { in?: string; name?: string }[])
      .filter((p) => p.in === 'query')
      .map((p) => p.name),
  );
  const validation = api.validator.validateRequest(
    {
      method: method === 'HEAD' ? 'GET' : method,
      path: url.pathname,
      query: Object.fromEntries(Object.entries(query).filter(([k]) => declaredQuery.has(k))),
      headers: headers as Record<string, string>,
      body,
    },
    operation as Operation,
  );
  if (!validation.valid) requestProblems.push(`request: ${describeErrors(validation.errors)}`);
  return requestProblems;
}

export async function checkExchange(
  document: object,
  opts: InjectOptions,
  res: LightMyRequestResponse,
  checkRequests = true,
): Promise<string[]> {
  const url = new URL(String(opts.url ?? opts.path ?? '/'), 'http://test.invalid');
  if (!url.pathname.startsWith('/api/') || url.pathname.startsWith('/api/docs')) return [];
  const api = await backendFor(document);
  const method = String(opts.method ?? 'GET').toUpperCase();
  const headers = lowerCaseKeys(opts.headers as Headers);
  const query: Record<string, string | string[]> = {};
  const extraQuery = (opts.query ?? {}) as Record<string, string | string[]>;
  for (const [k, v] of [...url.searchParams.entries(), ...Object.entries(extraQuery)]) {
    const prev = query[k];
    if (prev === undefined) query[k] = v;
    else query[k] = ([] as string[]).concat(prev, v);
  }
  const status = res.statusCode;
  const resMedia = mediaTypeOf(res.headers['content-type'] as string | undefined);
  // An answer read as a stream (`payloadAsStream`, e.g. Server-Sent Events): its status and
  // content type are checked, its body is the caller's to read.
  const streamed = res.rawPayload === undefined;
  let resJson: unknown;
  if (!streamed && resMedia === 'application/json' && res.body !== '') {
    try {
      resJson = JSON.parse(decodedBody(res));
    } catch {
      return [`the ${status} answer is not valid JSON`];
    }
  }

  const operation = api.router.matchOperation({
    method: method === 'HEAD' ? 'GET' : method,
    path: url.pathname,
    headers: headers as Record<string, string>,
  });
  if (!operation) {
    // Only the not-found answer may meet a call the document does not name.
    if (status === 404 && isErrorEnvelope(resJson)) return [];
    return [`${method} ${url.pathname} is not in the document, yet answered ${status}`];
  }

  // Traffic that is garbage by design (the fuzz test) is not held to the document: its
  // calls are not read at all, which spared a quarter of that test's time.
  const requestProblems = checkRequests
    ? await requestProblemsOf(api, operation, opts, method, url, headers, query)
    : [];

  const problems: string[] = [];
  if (requestProblems.length > 0 && (status < 400 || status >= 500 || !isErrorEnvelope(resJson))) {
    problems.push(`answered ${status} to a call the document does not allow (${requestProblems.join('; ')})`);
  }

  const responses = (operation.responses ?? {}) as Record<string, ResponseObject>;
  const declared = responses[String(status)] ?? responses[`${String(status)[0]}XX`] ?? responses.default;
  if (!declared) {
    problems.push(`status ${status} is not declared (declared: ${Object.keys(responses).join(', ')})`);
    return problems;
  }
  const hasBody = method !== 'HEAD' && (streamed || res.rawPayload.length > 0);
  if (hasBody) {
    const media = declared.content?.[resMedia];
    if (!media) {
      problems.push(
        `the ${status} answer is ${resMedia || 'untyped'}; declared: ${Object.keys(declared.content ?? {}).join(', ') || 'no body'}`,
      );
    } else if (resMedia === 'application/json' && !streamed) {
      const result = api.validator.validateResponse(resJson, operation as Operation, status);
      if (!result.valid) problems.push(`the ${status} answer: ${describeErrors(result.errors)}`);
    }
  } else if (method !== 'HEAD' && declared.content?.['application/json']) {
    problems.push(`the ${status} answer has no body, but the document declares one`);
  }
  return problems;
}

export interface TrafficValidation {
  /**
   * Whether a call the document refuses must be refused by the server too. Off only for
   * traffic that is garbage by design (the fuzz test), whose answers are still checked.
   */
  requests: boolean;
}

/** Makes every `app.inject` of this app fail on a call or answer the document does not describe. */
export function validateInjectTraffic(app: FastifyInstance, options: TrafficValidation = { requests: true }): void {
  const document = app.swagger();
  const inject = app.inject.bind(app);
  const checked = async (opts: InjectOptions) => {
    const res = await inject(opts);
    const problems = await checkExchange(document, opts, res, options.requests);
    if (problems.length > 0) {
      throw new OpenApiViolation(`${opts.method ?? 'GET'} ${String(opts.url ?? opts.path)}`, problems);
    }
    return res;
  };
  // Only the promise form with options is used by the suite; the chain form goes unchecked.
  app.inject = ((opts?: InjectOptions | string, callback?: unknown) => {
    if (opts && typeof opts === 'object' && callback === undefined) return checked(opts);
    return (inject as (...args: unknown[]) => unknown)(opts, callback);
  }) as typeof app.inject;
}
