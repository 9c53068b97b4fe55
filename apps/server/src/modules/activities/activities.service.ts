import type { Role } from '@rally/shared/catalog/accounts';
import type { ActivityPriority, ActivityType } from '@rally/shared/catalog/console';
import { RALLY_ROUTES } from '@rally/shared/catalog/landing';
import { desc, eq, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client';
import { activities } from '../../db/schema/activities';
import { entries } from '../../db/schema/entries';
import { users } from '../../db/schema/users';
import type { AuthContext } from '../../lib/authorize';
import { paginate, totalRows } from '../../lib/pagination';
import { isVerifiedRider, ownEntry } from '../../lib/riders';
import { displayName } from '../../lib/sql-text';
import { visibleAccounts } from '../../lib/visibility';

export interface ActivityInput {
  type: ActivityType;
  description: string;
  priority?: ActivityPriority;
  userId?: string | null;
  userName?: string | null;
  actorId?: string | null;
  actorName?: string | null;
  details?: string | null;
  location?: string | null;
  metadata?: Record<string, unknown> | null;
  /** When it happened, if not now (the clock of the write that records it; demo data). */
  createdAt?: Date;
}

function activityRow(input: ActivityInput): typeof activities.$inferInsert {
  return {
    type: input.type,
    priority: input.priority ?? 'normal',
    userId: input.userId ?? null,
    userName: input.userName ?? null,
    actorId: input.actorId ?? null,
    actorName: input.actorName ?? null,
    description: input.description,
    details: input.details ?? null,
    location: input.location ?? null,
    metadata: input.metadata ?? null,
    ...(input.createdAt ? { createdAt: input.createdAt } : {}),
  };
}

/**
 * Writes feed/log entries, in one statement. Call it inside the transaction of the change it
 * records. `once`: an entry a unique index already holds (one `rally_completion` per rider
 * and day) is skipped, not an error. Returns how many were written.
 */
export async function recordActivities(
  db: DbOrTx,
  inputs: readonly ActivityInput[],
  { once = false }: { once?: boolean } = {},
): Promise<number> {
  if (inputs.length === 0) return 0;
  const insert = db.insert(activities).values(inputs.map(activityRow));
  const written = await (once ? insert.onConflictDoNothing() : insert).returning({ id: activities.id });
  return written.length;
}

/** Writes one feed/log entry (see recordActivities). */
export async function recordActivity(db: DbOrTx, input: ActivityInput): Promise<void> {
  await recordActivities(db, [input]);
}

// The dashboard's Recent Activity feed, and demo entries for trying the console.

const feedColumns = {
  id: activities.id,
  type: activities.type,
  priority: activities.priority,
  userName: activities.userName,
  actorName: activities.actorName,
  kitName: users.kitName,
  firstName: users.firstName,
  lastName: users.lastName,
  description: activities.description,
  details: activities.details,
  location: activities.location,
  createdAt: activities.createdAt,
  total: totalRows,
};

export type ActivityFeedRow = Awaited<ReturnType<typeof feedPage>>[number];

/** Entries about accounts the viewer may not see stay out of the feed. */
function feedPage(db: Db, viewerRole: Role, limit: number, offset: number) {
  return db
    .select(feedColumns)
    .from(activities)
    .leftJoin(users, eq(users.id, activities.userId))
    .where(visibleAccounts(viewerRole, users.role, { orphans: true }))
    .orderBy(desc(activities.createdAt), desc(activities.id))
    .limit(limit)
    .offset(offset);
}

/** A page of the feed (activities.presenter.ts presents it for the viewer). */
export function recentActivities(db: Db, viewerRole: Role, q: { limit: number; offset: number }) {
  return paginate((limit, offset) => feedPage(db, viewerRole, limit, offset), q.limit, q.offset);
}

/** Places on the rally's routes: a location that is one of these is no one's address. */
export const ROUTE_PLACES = new Set(Object.values(RALLY_ROUTES).flatMap((route) => route.waypoints.map((w) => w.name)));

const SAMPLE_PLACES = [...ROUTE_PLACES];

/**
 * Inserts a handful of realistic rally-day entries (checkpoint scans, an SOS call, a
 * completion, a fire) about real verified riders, so the feed can be demonstrated
 * before the rally. Each is marked `sample: true` in its metadata.
 */
export async function insertSampleActivities(db: Db, actor: AuthContext): Promise<number> {
  const riders = await db
    .select({ id: users.id, firstName: users.firstName, lastName: users.lastName, kitName: users.kitName })
    .from(users)
    .innerJoin(entries, ownEntry)
    .where(isVerifiedRider)
    .orderBy(sql`random()`)
    .limit(5);
  const pick = (i: number) => riders[i % Math.max(riders.length, 1)] ?? null;
  const place = (i: number) => SAMPLE_PLACES[(Date.now() + i) % SAMPLE_PLACES.length];
  const subject = (i: number) => {
    const r = pick(i);
    return r
      ? { userId: r.id, userName: displayName(r), label: r.kitName || displayName(r) }
      : { userId: null, userName: 'Demo Rider', label: 'Demo Rider' };
  };
  const samples: ActivityInput[] = [];
  const s0 = subject(0);
  samples.push({
    type: 'checkpoint_scan',
    priority: 'low',
    userId: s0.userId,
    userName: s0.userName,
    description: `${s0.label} scanned in at the ${place(0)} checkpoint`,
    location: place(0),
  });
  const s1 = subject(1);
  samples.push({
    type: 'sos_call',
    priority: 'high',
    userId: s1.userId,
    userName: s1.userName,
    description: `SOS from ${s1.label}: engine trouble, rider safe and waiting for the sweep team`,
    location: place(1),
  });
  const s2 = subject(2);
  samples.push({
    type: 'checkpoint_scan',
    priority: 'low',
    userId: s2.userId,
    userName: s2.userName,
    description: `${s2.label} scanned in at the ${place(2)} checkpoint`,
    location: place(2),
  });
  const s3 = subject(3);
  samples.push({
    type: 'fire_earned',
    priority: 'low',
    userId: s3.userId,
    userName: s3.userName,
    description: `${s3.label} earned a fire from a fellow warrior`,
  });
  const s4 = subject(4);
  samples.push({
    type: 'rally_completion',
    priority: 'normal',
    userId: s4.userId,
    userName: s4.userName,
    description: `${s4.label} completed the rally loop back at Davao City`,
    location: 'Davao City',
  });
  await db.transaction(async (tx) => {
    for (const entry of samples) {
      await recordActivity(tx, {
        ...entry,
        actorId: actor.userId,
        actorName: displayName(actor),
        details: 'Sample entry for demonstration',
        metadata: { sample: true, createdBy: actor.userId },
      });
    }
  });
  return samples.length;
}
