// Demo incidents for seed-demo: the event's hotline, one rider's SOS still open (so the
// console's alarm and board can be tried) and one call a marshal took by phone, both through
// the real service, so activities, last stations and events are made the way they are on the day.
import { randomUUID } from 'node:crypto';
import { and, asc, eq, inArray, isNotNull } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { entries } from '../../db/schema/entries';
import { users } from '../../db/schema/users';
import { ownEntry } from '../../lib/riders';
import { fullName } from '../../lib/sql-text';
import { readEventSettings, updateEventSettings } from '../settings/settings.service';
import { createIncidentForRider, sendSos } from './incidents.service';

const DEMO_HOTLINE = '+63 917 555 0101';

export async function seedDemoIncidents(db: Db): Promise<string> {
  const [marshal] = await db
    .select({ id: users.id, role: users.role, firstName: users.firstName, lastName: users.lastName })
    .from(users)
    .where(inArray(users.role, ['marshall', 'admin']))
    .orderBy(asc(users.role))
    .limit(1);
  if (!marshal) return 'Incidents: no staff account to take a call.';
  const actor = { id: marshal.id, name: fullName(marshal.firstName, marshal.lastName) };
  if ((await readEventSettings(db)).hotline === null) {
    await updateEventSettings(
      db,
      { name: 'Mindanao Warriors Endurance Rally', startsOn: null, endsOn: null, hotline: DEMO_HOTLINE },
      actor,
    );
  }
  const riders = await db
    .select({
      id: users.id,
      firstName: users.firstName,
      lastName: users.lastName,
      email: users.email,
      role: users.role,
    })
    .from(users)
    .innerJoin(entries, ownEntry)
    .where(and(eq(entries.status, 'verified'), isNotNull(entries.riderNumber)))
    .orderBy(asc(entries.riderNumber))
    .limit(2);
  const [first, second] = riders;
  if (!first || !second) return `Incidents: hotline ${DEMO_HOTLINE}; too few verified riders for demo incidents.`;
  await sendSos(
    db,
    {
      sessionId: 'seed-demo',
      userId: first.id,
      role: first.role,
      firstName: first.firstName,
      lastName: first.lastName,
      email: first.email,
      verificationStatus: 'verified',
    },
    {
      id: randomUUID(),
      kind: 'mechanical',
      note: 'Chain snapped on the climb, waiting by the road',
      position: { lat: 7.9064, lng: 125.0944, accuracy: 35, at: new Date().toISOString() },
    },
  );
  await createIncidentForRider(db, marshal.role, actor, {
    riderId: second.id,
    kind: 'medical',
    note: 'Called the hotline: dizzy, resting at a sari-sari store',
  });
  return `Incidents: hotline ${DEMO_HOTLINE}, one open SOS and one phoned-in incident.`;
}
