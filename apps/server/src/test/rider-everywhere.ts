// A rider with data in as many tables as practical, across two editions: their account with
// medical notes, two entries (a rollover between), receipts, passages, SOS calls, a text
// received from their phone, and rows written directly where no route makes one cheaply
// (followers, fires, comments, positions, consents, decisions, kit, prints, ...). What the
// privacy tests (deletion, data export) check every table against.
import { randomBytes, randomInt, randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { courseDecisions } from '../db/schema/course';
import { dataAccess } from '../db/schema/data-access';
import { entries } from '../db/schema/entries';
import { files } from '../db/schema/files';
import { incidents, sosAbuseMarks } from '../db/schema/incidents';
import { idCardPrints, kitTracking } from '../db/schema/kit';
import {
  followers,
  inboundTexts,
  notificationSettings,
  outboxMessages,
  pushSubscriptions,
  smsPins,
} from '../db/schema/messages';
import { consents, erasureRequests } from '../db/schema/privacy';
import { receiptReadings } from '../db/schema/receipts';
import { passwordResets } from '../db/schema/security';
import { comments, fires } from '../db/schema/social';
import { positions, trackers } from '../db/schema/tracking';
import { users } from '../db/schema/users';
import { inEdition } from '../lib/edition-of';
import type { TestApp } from './build-app';
import {
  type Actor,
  codedRider,
  createStation,
  injectAs,
  registerRider,
  rejoinedRider,
  rollOver,
  syncScan,
} from './factories';

export interface RiderEverywhere extends Actor {
  riderNumber: number;
  /** Values that are the rider's and only theirs (to look for, or to find gone). */
  secrets: Record<string, string>;
  /** Their rider and verification codes, both editions. */
  codes: string[];
  firstName: string;
}

/**
 * Seeds the rider. `admin` verifies and rolls the edition over (the test app's current
 * edition moves on: use a test app of the file's own), `marshall` scans.
 */
export async function riderEverywhere(
  t: TestApp,
  admin: Actor,
  marshall: Actor,
  overrides: Record<string, string> = {},
): Promise<RiderEverywhere> {
  const db = t.database.db;
  const tag = randomUUID().slice(0, 8);
  const digits = () => String(randomInt(1_000_000, 9_999_999));
  const phone = `0917${digits()}`;
  const emergency = `0918${digits()}`;
  const secrets = {
    phone,
    phoneE164: `+63${phone.slice(1)}`,
    emergency,
    address: `Purok ${tag}, Davao`,
    allergies: `Allergic to ${tag}`,
    medical: `Condition ${tag}`,
    sos: `Chain snapped ${tag}`,
    lat: '7.1234567',
  };
  const rider = await codedRider(t.app, db, admin, {
    phoneNumber: phone,
    emergencyContactNumber: emergency,
    address: secrets.address,
    kitName: `KIT ${tag.toUpperCase()}`,
    ...overrides,
  });
  await db
    .update(users)
    .set({ allergies: secrets.allergies, medicalConditions: secrets.medical, bloodType: 'O+' })
    .where(eq(users.id, rider.userId));
  const codes = [rider.riderCode, rider.verificationCode];
  const station = await createStation(t.app, admin, { name: `CP ${tag}`, kind: 'checkpoint' });
  await syncScan(t.app, marshall, { stationId: station, riderCode: rider.riderCode });
  const sos = (note: string) =>
    injectAs(t.app, rider, 'POST', '/api/my/sos', {
      id: randomUUID(),
      kind: 'mechanical',
      note,
      position: { lat: Number(secrets.lat), lng: 125.27, accuracy: 12, at: new Date().toISOString() },
    });
  expect((await sos(secrets.sos)).statusCode).toBe(201);
  await db.insert(inboundTexts).values({
    webhookId: `hook-${tag}`,
    phoneNumber: secrets.phoneE164,
    message: `SOS ${tag}`,
    receivedAt: new Date(),
    outcome: 'sos',
  });
  await seedDirectRows(t, rider.userId, admin, tag);

  // The next edition: the rider enters again, is verified (a new code), scanned, in trouble.
  await rollOver(t.app, admin);
  const code = await rejoinedRider(t.app, admin, rider);
  const [now] = await db
    .select({ riderCode: entries.riderCode })
    .from(entries)
    .where(and(eq(entries.userId, rider.userId), inEdition(entries.editionId)));
  codes.push(now?.riderCode as string, code);
  await syncScan(t.app, marshall, { stationId: station, riderCode: now?.riderCode as string });
  expect((await sos(`${secrets.sos} again`)).statusCode).toBe(201);
  const [user] = await db.select({ firstName: users.firstName }).from(users).where(eq(users.id, rider.userId));
  return { ...rider, secrets, codes, firstName: user?.firstName ?? '' };
}

/** The rows no cheap route makes: written as their modules would. */
async function seedDirectRows(t: TestApp, userId: string, admin: Actor, tag: string) {
  const db = t.database.db;
  const other = await registerRider(t.app);
  const hash = () => randomBytes(32).toString('hex');
  const [incident] = await db.select({ id: incidents.id }).from(incidents).where(eq(incidents.riderId, userId));
  const [receipt] = await db
    .select({ id: files.id })
    .from(files)
    .where(and(eq(files.userId, userId), eq(files.kind, 'payment_receipt')));
  await db
    .insert(pushSubscriptions)
    .values({ userId, endpoint: `https://push.example/${tag}`, p256dh: hash(), auth: hash() });
  const [follower] = await db
    .insert(followers)
    .values({ riderId: userId, email: `mama.${tag}@example.com`, tokenHash: hash(), confirmedAt: new Date() })
    .returning({ id: followers.id });
  await db.insert(outboxMessages).values([
    { channel: 'email', template: 'test', address: `rider.${tag}@example.com`, data: { tag }, userId },
    {
      channel: 'email',
      template: 'test',
      address: `mama.${tag}@example.com`,
      data: { tag },
      followerId: follower?.id,
    },
  ]);
  await db.insert(notificationSettings).values({ userId }).onConflictDoNothing();
  await db.insert(smsPins).values({ userId, pinHash: hash() }).onConflictDoNothing();
  await db.insert(fires).values([
    { giverId: userId, receiverId: other.userId },
    { giverId: other.userId, receiverId: userId },
  ]);
  await db.insert(comments).values([
    { authorId: userId, targetUserId: other.userId, text: `Ride safe ${tag}` },
    { authorId: other.userId, targetUserId: userId, text: `See you at the finish ${tag}` },
  ]);
  await db.insert(trackers).values({
    editionId: (await currentEditionId(t)) as string,
    userId,
    trackingId: hash(),
    enabled: true,
    consentedAt: new Date(),
  });
  await db.insert(positions).values({
    editionId: (await currentEditionId(t)) as string,
    userId,
    at: new Date(),
    lat: 7.12,
    lng: 125.27,
  });
  await db.insert(consents).values({ userId, purpose: 'tracking', given: true, version: '1', screen: 'tracking' });
  await db.insert(courseDecisions).values({ riderId: userId, day: 1, decision: 'dnf', note: `Broke down ${tag}` });
  await db.insert(kitTracking).values({ userId, tshirtGiven: true, tshirtGivenAt: new Date() }).onConflictDoNothing();
  await db.insert(idCardPrints).values({ userId, printedBy: admin.userId });
  if (incident) await db.insert(sosAbuseMarks).values({ userId, note: `Prank ${tag}`, incidentId: incident.id });
  if (receipt)
    await db
      .insert(receiptReadings)
      .values({ fileId: receipt.id, status: 'read', referenceNumber: digitsOf(tag), amountCentavos: 150_000 })
      .onConflictDoNothing();
  await db.insert(passwordResets).values({ userId, tokenHash: hash(), expiresAt: new Date(Date.now() + 3_600_000) });
  await db.insert(erasureRequests).values({ userId, note: `Please forget me ${tag}`, status: 'refused' });
  await db.insert(dataAccess).values({
    staffId: admin.userId,
    staffName: 'Admin Reader',
    riderId: userId,
    fields: ['medical'],
    source: 'GET /api/admin/users/:id',
  });
}

const digitsOf = (tag: string) => String(Number.parseInt(tag, 16) % 1_000_000_000).padStart(9, '0');

async function currentEditionId(t: TestApp): Promise<string | undefined> {
  const all = (await injectAs(t.app, null, 'GET', '/api/editions')).json().data as Array<{
    id: string;
    current: boolean;
  }>;
  return all.find((e) => e.current)?.id;
}
