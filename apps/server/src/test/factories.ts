// Test data: valid registrations, real image and PDF files, and signed-in actors of every role.
import { randomBytes, randomUUID } from 'node:crypto';
import type { Role } from '@rally/shared/catalog/accounts';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance, HTTPMethods } from 'fastify';
import sharp from 'sharp';
import type { Db } from '../db/client';
import { entries } from '../db/schema/entries';
import { users } from '../db/schema/users';
import { inEdition } from '../lib/edition-of';
import { createUser } from '../modules/operator/operator.service';
import { waitForFiles } from './wait-for-files';

let seq = 0;
function unique(): string {
  seq += 1;
  return `${Date.now().toString(36)}${seq}${randomBytes(2).toString('hex')}`;
}

export const STRONG_PASSWORD = 'Warrior2025!';

/**
 * Riders without a chosen number get one from 700–998; tests that need a particular number
 * pick one below 700 (or 999), so an earlier test's random rider never holds it.
 */
function randomRiderNumber(): number {
  if (riderNumberPool.length === 0) {
    const held = new Set(recentRiderNumbers);
    const fresh = Array.from({ length: 299 }, (_, i) => 700 + i).filter((n) => !held.has(n));
    for (let i = fresh.length - 1; i > 0; i--) {
      const j = Math.floor(Math.random() * (i + 1));
      [fresh[i], fresh[j]] = [fresh[j] as number, fresh[i] as number];
    }
    // Taken from the end: the numbers not handed out lately come first.
    riderNumberPool = [...recentRiderNumbers, ...fresh];
  }
  const n = riderNumberPool.pop() as number;
  recentRiderNumbers.push(n);
  if (recentRiderNumbers.length > 150) recentRiderNumbers.shift();
  return n;
}

/**
 * The numbers handed out in a shuffled order, each once per round of 299, and a new round
 * starts with those not handed out in the last 150: a test file (its databases are its own;
 * the files of a worker run one after another) that registers fewer than 150 riders never
 * meets its own number twice. Drawn at random, two riders of one file shared a number a few
 * times in a hundred files, and a test registering through `registrationFields` met a 409
 * (page-cookie.test.ts in CI).
 */
let riderNumberPool: number[] = [];
const recentRiderNumbers: number[] = [];

/** A complete, valid registration payload (text fields, as multipart sends them). */
export function registrationFields(overrides: Record<string, string | undefined> = {}): Record<string, string> {
  const id = unique();
  const fields: Record<string, string | undefined> = {
    firstName: 'Datu',
    lastName: `Rider${id}`,
    email: `rider.${id}@example.com`,
    password: STRONG_PASSWORD,
    phoneNumber: '09171234567',
    address: 'Davao City',
    gender: 'male',
    birthdate: '1990-05-17',
    motorcycleModel: 'Honda ADV 160',
    category: 'bagani',
    kitName: 'DATU OF THE SOUTH',
    clubName: 'Davao Adventure Riders',
    paymentMethod: 'gcash',
    emergencyContactName: 'Amihan Rider',
    emergencyContactNumber: '09181234567',
    riderNumber: String(randomRiderNumber()),
    tshirtSize: 'L',
    finisherSleeveSize: 'M',
    vestSize: 'XL',
    paymentAmount: '3000',
    ...overrides,
  };
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as Record<string, string>;
}

export interface FilePart {
  field: string;
  filename: string;
  contentType: string;
  data: Buffer;
}

/** Builds a multipart/form-data body by hand, so tests control every byte of it. */
export function multipart(fields: Record<string, string>, files: FilePart[] = []) {
  const boundary = `----rally${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  for (const f of files) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${f.field}"; filename="${f.filename}"\r\nContent-Type: ${f.contentType}\r\n\r\n`,
      ),
      f.data,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

export async function jpeg(opts: { width?: number; height?: number; gps?: boolean } = {}): Promise<Buffer> {
  let img = sharp({
    create: { width: opts.width ?? 64, height: opts.height ?? 64, channels: 3, background: { r: 220, g: 90, b: 30 } },
  }).jpeg({ quality: 80 });
  if (opts.gps) {
    img = img.withExif({
      IFD0: { Make: 'RallyCam', Model: 'Test' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '7/1 4/1 0/1', GPSLongitudeRef: 'E', GPSLongitude: '125/1 36/1 0/1' },
    });
  }
  return img.toBuffer();
}

export async function png(width = 48, height = 48): Promise<Buffer> {
  return sharp({ create: { width, height, channels: 4, background: { r: 10, g: 120, b: 200, alpha: 0.5 } } })
    .png()
    .toBuffer();
}

/** A minimal one-page PDF, readable by a real parser. */
export function pdf(): Buffer {
  return Buffer.from(
    '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
  );
}

/** The same page, encrypted with the standard security handler (no password needed to open). */
export function encryptedPdf(): Buffer {
  return Buffer.from(
    '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 200 200]>>endobj\n4 0 obj<</Filter/Standard/V 1/R 2/O(aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa)/U(aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa)/P -4>>endobj\ntrailer<</Root 1 0 R/Encrypt 4 0 R>>\n%%EOF\n',
  );
}

export async function registrationFiles(): Promise<FilePart[]> {
  return [
    { field: 'profileImage', filename: 'profile.jpg', contentType: 'image/jpeg', data: await jpeg() },
    { field: 'paymentReceipt', filename: 'receipt.png', contentType: 'image/png', data: await png() },
  ];
}

/** The emergency contact and medical notes as stored: what registration and My Details write. */
export const emergencyAndMedicalColumns = {
  emergencyContactName: users.emergencyContactName,
  emergencyContactNumber: users.emergencyContactNumber,
  bloodType: users.bloodType,
  allergies: users.allergies,
  medicalConditions: users.medicalConditions,
};

export interface Actor {
  token: string;
  userId: string;
  email: string;
  role: Role;
}

/** Registers a rider through the real multipart route. */
export async function registerRider(
  app: FastifyInstance,
  overrides: Record<string, string | undefined> = {},
): Promise<Actor & { verificationCode: string; riderNumber: number }> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const fields = registrationFields(overrides);
    const body = multipart(fields, await registrationFiles());
    const res = await app.inject({ method: 'POST', url: '/api/auth/register-with-uploads', ...body });
    // A random number may collide with an earlier test's rider: pick another.
    if (res.statusCode === 409 && !overrides.riderNumber && res.json().code === 'RIDER_NUMBER_TAKEN') continue;
    if (res.statusCode !== 201) throw new Error(`registration failed: ${res.statusCode} ${res.body}`);
    const { email } = fields;
    if (email === undefined) throw new Error('registered without an email');
    const json = res.json();
    // Its images are processed by the file queue after the answer: tests read them back.
    await waitForFiles(app);
    return {
      token: json.token,
      userId: json.data.user.id,
      email,
      role: 'participant',
      verificationCode: json.data.user.verificationCode,
      riderNumber: json.data.user.riderNumber,
    };
  }
  throw new Error('could not find a free rider number');
}

export async function login(app: FastifyInstance, email: string, password = STRONG_PASSWORD) {
  return app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password } });
}

/** An active, verified account of a role (as the operator CLI makes them), signed in. */
export async function staff(app: FastifyInstance, db: Db, role: Role): Promise<Actor> {
  const email = `${role}.${unique()}@example.com`;
  await createUser(db, { email, password: STRONG_PASSWORD, role });
  const res = await login(app, email);
  if (res.statusCode !== 200) throw new Error(`staff login failed: ${res.body}`);
  return { token: res.json().token, userId: res.json().data.user.id, email, role };
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** A request as `actor` (signed out when null), with a JSON body when one is given. */
export function injectAs(
  app: FastifyInstance,
  actor: Actor | null,
  method: HTTPMethods,
  url: string,
  payload?: unknown,
) {
  return app.inject({
    method,
    url,
    headers: actor ? bearer(actor.token) : {},
    ...(payload !== undefined ? { payload: payload as object } : {}),
  });
}

/** Opens a password reset link as its page does: who it is for, or 400 once it is spent or dead. */
export const readResetLink = (app: FastifyInstance, token: string) =>
  app.inject({ method: 'GET', url: `/api/auth/reset-password/${token}` });

/** Sets a new password through a reset link (signed out, as from the link's page). */
export const spendResetLink = (app: FastifyInstance, token: string, newPassword: string) =>
  app.inject({ method: 'POST', url: '/api/auth/reset-password', payload: { token, newPassword } });

/** Registers a rider and has `approver` approve the payment through the real verification call. */
export async function approvedRider(
  app: FastifyInstance,
  approver: Actor,
  overrides: Record<string, string | undefined> = {},
) {
  const rider = await registerRider(app, overrides);
  const res = await app.inject({
    method: 'POST',
    url: '/api/admin/verifications/verify',
    headers: bearer(approver.token),
    payload: { verification_code: rider.verificationCode, action: 'verified' },
  });
  if (res.statusCode !== 200) throw new Error(`approval failed: ${res.statusCode} ${res.body}`);
  return rider;
}

/** A rider approved by `approver`, with the rider code their QR carries (what a marshal scans). */
export async function codedRider(
  app: FastifyInstance,
  db: Db,
  approver: Actor,
  overrides: Record<string, string | undefined> = {},
) {
  const rider = await approvedRider(app, approver, overrides);
  const [row] = await db
    .select({ code: entries.riderCode })
    .from(entries)
    .where(and(eq(entries.userId, rider.userId), inEdition(entries.editionId)));
  return { ...rider, riderCode: row?.code as string };
}

/**
 * A returning rider enters the current edition with their number (`POST /api/my/entries`, the
 * form the web's /join sends), with a receipt unless `withReceipt` is false; answers the new
 * entry's verification code. `fields` overrides the form's fields.
 */
export async function joinEdition(
  app: FastifyInstance,
  rider: Actor & { riderNumber: number },
  fields: Record<string, string> = {},
  withReceipt = true,
): Promise<string> {
  const body = multipart(
    {
      riderNumber: String(rider.riderNumber),
      category: 'bagani',
      paymentMethod: 'gcash',
      tshirtSize: 'L',
      finisherSleeveSize: 'M',
      vestSize: 'L',
      ...fields,
    },
    withReceipt
      ? [{ field: 'paymentReceipt', filename: 'receipt.jpg', contentType: 'image/jpeg', data: await jpeg() }]
      : [],
  );
  const res = await app.inject({
    method: 'POST',
    url: '/api/my/entries',
    payload: body.payload,
    headers: { ...body.headers, ...bearer(rider.token) },
  });
  if (res.statusCode !== 201) throw new Error(`entry refused: ${res.statusCode} ${res.body}`);
  return res.json().data.entry.verificationCode as string;
}

/** The returning rider enters the current edition (joinEdition) and `approver` verifies it. */
export async function rejoinedRider(
  app: FastifyInstance,
  approver: Actor,
  rider: Actor & { riderNumber: number },
  fields: Record<string, string> = {},
): Promise<string> {
  const code = await joinEdition(app, rider, fields);
  const res = await injectAs(app, approver, 'POST', '/api/admin/verifications/verify', {
    verification_code: code,
    action: 'verified',
  });
  if (res.statusCode !== 200) throw new Error(`approval failed: ${res.statusCode} ${res.body}`);
  return code;
}

/**
 * Makes a next edition, copied from the current one, current (the rollover), as `admin`;
 * answers the outgoing edition's id and the new one's.
 */
export async function rollOver(app: FastifyInstance, admin: Actor): Promise<{ past: string; next: string }> {
  const all = (await injectAs(app, null, 'GET', '/api/editions')).json().data as Array<{
    id: string;
    year: number;
    current: boolean;
  }>;
  const outgoing = all.find((e) => e.current) as { id: string };
  const year = Math.max(...all.map((e) => e.year)) + 1;
  const made = await injectAs(app, admin, 'POST', '/api/admin/editions', {
    name: `Warriors ${randomUUID().slice(0, 6)}`,
    year,
    startsOn: `${year}-03-14`,
    endsOn: `${year}-03-16`,
    copyFrom: outgoing.id,
  });
  if (made.statusCode !== 201) throw new Error(`edition not made: ${made.statusCode} ${made.body}`);
  const next = made.json().data.edition.id as string;
  const current = await injectAs(app, admin, 'POST', `/api/admin/editions/${next}/make-current`);
  if (current.statusCode !== 200) throw new Error(`rollover failed: ${current.statusCode} ${current.body}`);
  return { past: outgoing.id, next };
}

/** A station made through the real call by `admin`; its id. */
export async function createStation(app: FastifyInstance, admin: Actor, body: Record<string, unknown>) {
  const res = await injectAs(app, admin, 'POST', '/api/admin/stations', body);
  if (res.statusCode !== 201) throw new Error(`station not made: ${res.statusCode} ${res.body}`);
  return res.json().data.id as string;
}

/** One scan as a marshal's phone sends it: an id made on the device, the rider by code or number. */
export interface ScanInput {
  stationId: string;
  riderCode?: string | null;
  riderNumber?: number;
  scannedAt?: string;
  deviceId?: string;
  source?: 'camera' | 'manual';
  id?: string;
}

/** Syncs one scan through the real batch call and returns its per-item result (the call must answer 200). */
export async function syncScan(app: FastifyInstance, actor: Actor, input: ScanInput) {
  const {
    id = randomUUID(),
    scannedAt = new Date().toISOString(),
    deviceId = 'phone',
    source = 'camera',
    ...rider
  } = input;
  const res = await app.inject({
    method: 'POST',
    url: '/api/admin/scans',
    headers: bearer(actor.token),
    payload: { scans: [{ id, scannedAt, deviceId, source, ...rider }] },
  });
  if (res.statusCode !== 200) throw new Error(`scan sync failed: ${res.statusCode} ${res.body}`);
  return { id, ...(res.json().data.results[0] as { status: string; reason?: string }) };
}
