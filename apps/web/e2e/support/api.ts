// Direct API calls for test setup, so each test only drives the screens it is about.
import { type APIRequestContext, expect, type Page } from '@playwright/test';
import type { UserRecord } from '@rally/shared/contracts/auth';
import { PASSWORD, uniqueEmail } from './env';
import { uniqueImageFixture } from './images';

/** A random free rider number, so tests never fight over one. */
export async function freeRiderNumber(request: APIRequestContext): Promise<number> {
  const response = await request.get('/api/rider-numbers/taken');
  const taken = new Set<number>((await response.json()).data.takenNumbers);
  for (;;) {
    const n = 1 + Math.floor(Math.random() * 1000);
    if (!taken.has(n)) return n;
  }
}

/** A rider number as the screens show it: at least three digits (7 -> "007"). */
export function shownRiderNumber(riderNumber: number | null): string {
  if (riderNumber === null) throw new Error('this rider has no number');
  return String(riderNumber).padStart(3, '0');
}

export interface RegisteredRider {
  email: string;
  password: string;
  token: string;
  user: UserRecord;
}

/** Who registers: the defaults make a pending "Pending Rider" on a random free number. */
export interface RiderFields {
  firstName?: string;
  lastName?: string;
  emailPrefix?: string;
  riderNumber?: number;
  receipt?: Buffer;
}

/** Registers a rider through the API (pending verification, paid by GCash with a receipt). */
export async function registerRider(request: APIRequestContext, fields: RiderFields = {}): Promise<RegisteredRider> {
  const email = uniqueEmail(fields.emailPrefix ?? 'pending');
  const riderNumber = fields.riderNumber ?? (await freeRiderNumber(request));
  const response = await request.post('/api/auth/register-with-uploads', {
    multipart: {
      firstName: fields.firstName ?? 'Pending',
      lastName: fields.lastName ?? 'Rider',
      email,
      password: PASSWORD,
      phoneNumber: '09171234567',
      category: 'lakan',
      paymentMethod: 'gcash',
      riderNumber: String(riderNumber),
      tshirtSize: 'L',
      finisherSleeveSize: 'M',
      vestSize: 'L',
      paymentAmount: '2700',
      paymentReceipt: { name: 'receipt.png', mimeType: 'image/png', buffer: fields.receipt ?? uniqueImageFixture() },
    },
  });
  const body = await response.json();
  if (!response.ok() || !body.token)
    throw new Error(`registration failed: ${response.status()} ${JSON.stringify(body)}`);
  return { email, password: PASSWORD, token: body.token, user: body.data.user };
}

/** A same-origin page with no scripts: where the session is written without loading the app. */
const BLANK_PAGE = '/__e2e-blank';

/**
 * Puts a session into the page's storage as a login would (lib/storage.ts: the token and user
 * in localStorage), and has the server set (a rider) or clear (staff) the page cookie as its
 * answer to a login does. Left to the app's own session check, the first /me of a page that
 * had held another rider's session was drawn for that rider (the cookie was still theirs),
 * and a test could click the old account's links before the app drew the new one.
 */
export async function signInWithToken(page: Page, token: string, user: UserRecord) {
  // The origin's storage is written from an empty page rather than one of the app's: loading
  // the app for it cost each sign-in a full parse and run of its scripts.
  await page.route(BLANK_PAGE, (route) =>
    route.fulfill({ contentType: 'text/html', body: '<!doctype html><title>e2e</title>' }),
  );
  await page.goto(BLANK_PAGE);
  await page.unroute(BLANK_PAGE);
  await page.evaluate(
    ([t, u]) => {
      localStorage.setItem('authToken', t);
      localStorage.setItem('userData', u);
    },
    [token, JSON.stringify(user)] as const,
  );
  // page.request shares the browser context's cookies: the Set-Cookie lands where pages read it.
  const check = await page.request.get('/api/auth/profile', { headers: bearer(token) });
  expect(check.ok(), await check.text()).toBeTruthy();
}

export interface Session {
  token: string;
  user: UserRecord;
}

export async function apiLogin(request: APIRequestContext, email: string, password = PASSWORD): Promise<Session> {
  const res = await request.post('/api/auth/login', { data: { email, password } });
  expect(res.ok(), await res.text()).toBeTruthy();
  const body = await res.json();
  return { token: body.token, user: body.data.user };
}

export const bearer = (token: string) => ({ Authorization: `Bearer ${token}` });

/** Signs in through the API as an account made by the CLI (createUser) or by registerRider. */
export async function sessionOf(
  request: APIRequestContext,
  account: { email: string; password: string },
): Promise<Session & { email: string; password: string }> {
  return {
    email: account.email,
    password: account.password,
    ...(await apiLogin(request, account.email, account.password)),
  };
}

/** Signs in through the /login screen, as a person would. */
export async function logIn(page: Page, email: string, password: string) {
  await page.goto('/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'ENTER THE REALM' }).click();
}
