// Demo event-day data for seed-demo: the default stations and a morning of scans made
// through the real ingest (so passages, checkpoint counts and activities are derived the
// same way as on the day), including flagged ones for the review queue.
import { randomUUID } from 'node:crypto';
import { routeForCategory } from '@rally/shared/catalog/event-day';
import { and, asc, eq, inArray, isNotNull } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { entries } from '../../db/schema/entries';
import { users } from '../../db/schema/users';
import type { AuthContext } from '../../lib/authorize';
import { ownEntry } from '../../lib/riders';
import { ingestScans } from '../scans/scans.service';
import { listStations, seedDefaultStations } from '../stations/stations.service';

const hoursAgo = (h: number) => new Date(Date.now() - h * 3_600_000).toISOString();

export async function seedEventDay(db: Db): Promise<string> {
  const existing = await listStations(db);
  const stationList = existing.length > 0 ? existing : await seedDefaultStations(db, null);
  const [marshal] = await db
    .select({
      id: users.id,
      role: users.role,
      firstName: users.firstName,
      lastName: users.lastName,
      email: users.email,
    })
    .from(users)
    .where(inArray(users.role, ['marshall', 'admin', 'developer']))
    .orderBy(asc(users.role))
    .limit(1);
  if (!marshal) return 'Event day: stations created; no staff account to record demo scans.';
  const riders = await db
    .select({ code: entries.riderCode, number: entries.riderNumber, category: entries.category })
    .from(users)
    .innerJoin(entries, ownEntry)
    .where(and(eq(entries.status, 'verified'), eq(users.status, 'active'), isNotNull(entries.riderCode)))
    .orderBy(asc(entries.riderNumber))
    .limit(12);
  const start = stationList.find((s) => s.kind === 'start');
  if (!start || riders.length === 0) return 'Event day: stations created; no verified riders to scan.';
  const submitter: AuthContext = {
    sessionId: 'seed-demo',
    userId: marshal.id,
    role: marshal.role,
    firstName: marshal.firstName,
    lastName: marshal.lastName,
    email: marshal.email,
    verificationStatus: 'verified',
  };
  const scan = (stationId: string, riderCode: string, at: string, source: 'camera' | 'manual' = 'camera') => ({
    id: randomUUID(),
    stationId,
    riderCode,
    scannedAt: at,
    deviceId: 'demo-phone-1',
    source,
  });
  const items: unknown[] = [];
  riders.forEach((r, i) => {
    if (!r.code) return;
    items.push(scan(start.id, r.code, hoursAgo(4 - i * 0.01)));
    // Two of three riders have reached the first checkpoint of their route.
    const route = routeForCategory(r.category);
    const checkpoint = stationList.find(
      (s) => s.kind === 'checkpoint' && (s.routes.length === 0 || (route !== null && s.routes.includes(route))),
    );
    if (checkpoint && i % 3 !== 2) items.push(scan(checkpoint.id, r.code, hoursAgo(2 - i * 0.01)));
  });
  // For the review queue: a marshal scanning the same rider twice, and a torn sticker typed wrong.
  const first = riders[0]?.code;
  if (first) items.push(scan(start.id, first, hoursAgo(3.9)));
  items.push(scan(start.id, 'WR-UNKNOWN1', hoursAgo(3.5), 'manual'));
  const results = await ingestScans(db, items, submitter);
  const count = (status: string) => results.filter((r) => r.status === status).length;
  return `Event day: ${stationList.length} stations, ${count('accepted')} accepted scans and ${count('flagged')} flagged for review.`;
}
