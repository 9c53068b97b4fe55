// How long each kind of personal data is kept after an edition ends (DESIGN.md §12): the
// organiser's days per kind, the moment each kind goes, and what the daily job
// (retention-job.ts) already removed. The days count from the end of the edition's last day
// in the Philippines, as the rally's dates are Philippine days.
import { RETENTION_DEFAULTS, RETENTION_KINDS, type RetentionKind } from '@rally/shared/catalog/privacy';
import { RETENTION_DAYS_MAX, type UpdateRetentionRequest } from '@rally/shared/contracts/retention';
import { eq } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client';
import { type EditionRow, editions } from '../../db/schema/editions';
import { retentionSweeps } from '../../db/schema/privacy';
import type { Actor } from '../../lib/actor';
import { recordActivity } from '../activities/activities.service';
import { findEdition } from '../editions/editions.service';

const DAY_MS = 24 * 60 * 60_000;

export type RetentionDays = Record<RetentionKind, { days: number; isDefault: boolean }>;
export type SweepRow = typeof retentionSweeps.$inferSelect;

/**
 * The edition's days per kind: its own where set, else the default. A stored value that is
 * not a whole number of days in range (a hand edit of the row) counts as unset.
 */
export function retentionDaysOf(row: Pick<EditionRow, 'retention'>): RetentionDays {
  const own = row.retention ?? {};
  return Object.fromEntries(
    RETENTION_KINDS.map((kind) => {
      const v = own[kind];
      const valid = typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= RETENTION_DAYS_MAX;
      return [kind, valid ? { days: v, isDefault: false } : { days: RETENTION_DEFAULTS[kind], isDefault: true }];
    }),
  ) as RetentionDays;
}

/**
 * When a kind kept `days` after an edition ending on `endsOn` goes: the start of the day
 * `days + 1` after its last day, in Manila (UTC+8, no daylight saving). Null without an end
 * date: nobody said when it ends, so everything is kept.
 */
export function goesOn(endsOn: string | null, days: number): Date | null {
  if (!endsOn) return null;
  return new Date(Date.parse(`${endsOn}T00:00:00+08:00`) + (1 + days) * DAY_MS);
}

/**
 * Whether nothing of the edition may go yet however its days stand: it is the current edition
 * and its registration is open (no closing time, or one still ahead). Riders still join it, so
 * the organiser treats it as the rally to come, whatever its dates say (an install whose
 * dates were never updated); its time runs once registration closes.
 */
export function retentionHeld(e: Pick<EditionRow, 'current' | 'registrationClosesAt'>, now: Date): boolean {
  return e.current && (!e.registrationClosesAt || e.registrationClosesAt.getTime() > now.getTime());
}

export async function sweepsOf(db: DbOrTx, editionId: string): Promise<SweepRow[]> {
  return db.select().from(retentionSweeps).where(eq(retentionSweeps.editionId, editionId));
}

export async function readRetention(db: Db, editionId: string) {
  const edition = await findEdition(db, editionId);
  return { edition, sweeps: await sweepsOf(db, editionId) };
}

const said = (d: { days: number; isDefault: boolean }) => `${d.days} days${d.isDefault ? ' (default)' : ''}`;

/**
 * Replaces the edition's retention: the kinds named with a number keep those days, the others
 * the default. Allowed any time: a kind already swept stays swept (what went cannot come
 * back), and a shorter time for a kind not yet swept takes effect at the job's next run.
 */
export async function updateRetention(db: Db, editionId: string, body: UpdateRetentionRequest, actor: Actor) {
  return db.transaction(async (tx) => {
    const before = await findEdition(tx, editionId);
    const retention: Partial<Record<RetentionKind, number>> = {};
    for (const kind of RETENTION_KINDS) {
      const v = body[kind];
      if (typeof v === 'number') retention[kind] = v;
    }
    const [row] = (await tx
      .update(editions)
      .set({ retention, updatedAt: new Date(), updatedBy: actor.id })
      .where(eq(editions.id, editionId))
      .returning()) as [EditionRow];
    const was = retentionDaysOf(before);
    const now = retentionDaysOf(row);
    const changed = RETENTION_KINDS.filter((k) => said(was[k]) !== said(now[k]));
    await recordActivity(tx, {
      type: 'edition_updated',
      actorId: actor.id,
      actorName: actor.name,
      description: `${actor.name} changed how long ${row.name} keeps personal data`,
      details: changed.length ? changed.map((k) => `${k}: ${said(was[k])} → ${said(now[k])}`).join('; ') : 'No change',
    });
    return { edition: row, sweeps: await sweepsOf(tx, editionId) };
  });
}
