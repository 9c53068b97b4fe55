// The daily retention job (DESIGN.md §12): removes or anonymises each kind of each edition
// once its time after the edition's last day is over. A job of the message worker's loop,
// which runs on every instance: each kind of each edition is done once, recorded in
// retention_sweeps in the transaction that does it (or, for the batched deletes, right after
// them), so an instance finding it recorded does nothing, and two instances racing do the
// work once (the second waits on the record's key, then finds it taken).
import { RETENTION_KINDS, type RetentionKind } from '@rally/shared/catalog/privacy';
import { and, eq } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { editions } from '../../db/schema/editions';
import { retentionSweeps } from '../../db/schema/privacy';
import type { FileStore } from '../../lib/file-store';
import type { ScheduledJob } from '../messages/outbox-worker';
import { goesOn, retentionDaysOf, retentionHeld } from './retention.service';
import {
  anonymiseIncidents,
  clearTrackerPositions,
  deletePositions,
  deleteReceipts,
  sweepContact,
  sweepMedical,
} from './retention-sweeps';

const DAY_MS = 24 * 60 * 60_000;
/** After a failed run: soon again, not tomorrow. */
const RETRY_MS = 60 * 60_000;

export interface SweepDone {
  editionId: string;
  kind: RetentionKind;
  rows: number;
}

interface Warn {
  warn(obj: unknown, message: string): void;
}

/**
 * Records the sweep and runs `work` in one transaction; nothing when it is recorded already.
 * `before`: rows already removed by batches outside it.
 */
async function recorded(
  db: Db,
  now: Date,
  editionId: string,
  kind: RetentionKind,
  work: (tx: Tx) => Promise<number>,
  before = 0,
): Promise<number | null> {
  return db.transaction(async (tx) => {
    const [claimed] = await tx
      .insert(retentionSweeps)
      .values({ editionId, kind, ranAt: now, rows: before })
      .onConflictDoNothing()
      .returning({ kind: retentionSweeps.kind });
    if (!claimed) return null;
    const rows = before + (await work(tx));
    if (rows !== before) {
      await tx
        .update(retentionSweeps)
        .set({ rows })
        .where(and(eq(retentionSweeps.editionId, editionId), eq(retentionSweeps.kind, kind)));
    }
    return rows;
  });
}

/**
 * Sweeps every kind of every edition that is due at `now` and not swept yet; answers what it
 * did. An edition without an end date keeps everything, and so does the current edition while
 * its registration is open (retentionHeld). A failure of one sweep does not stop
 * the others: it is retried at the next run (reported in `failed`).
 */
export async function sweepExpired(
  db: Db,
  fileStore: FileStore,
  now: Date,
): Promise<{ done: SweepDone[]; failed: Array<{ editionId: string; kind: RetentionKind; error: unknown }> }> {
  const all = await db
    .select({
      id: editions.id,
      endsOn: editions.endsOn,
      retention: editions.retention,
      current: editions.current,
      registrationClosesAt: editions.registrationClosesAt,
    })
    .from(editions);
  const swept = new Set(
    (await db.select({ editionId: retentionSweeps.editionId, kind: retentionSweeps.kind }).from(retentionSweeps)).map(
      (s) => `${s.editionId} ${s.kind}`,
    ),
  );
  const dueAt = (e: (typeof all)[number], kind: RetentionKind) =>
    retentionHeld(e, now) ? null : goesOn(e.endsOn, retentionDaysOf(e)[kind].days);
  const done: SweepDone[] = [];
  const failed: Array<{ editionId: string; kind: RetentionKind; error: unknown }> = [];
  for (const kind of RETENTION_KINDS) {
    // A person's notes stay while any edition they entered still keeps them.
    const keeping = all.filter((e) => (dueAt(e, kind)?.getTime() ?? Number.POSITIVE_INFINITY) > now.getTime());
    for (const e of all) {
      const at = dueAt(e, kind);
      if (!at || at.getTime() > now.getTime() || swept.has(`${e.id} ${kind}`)) continue;
      const keepingIds = keeping.map((k) => k.id).filter((id) => id !== e.id);
      try {
        const rows = await sweepKind(db, fileStore, now, e.id, kind, keepingIds);
        if (rows !== null) done.push({ editionId: e.id, kind, rows });
      } catch (error) {
        failed.push({ editionId: e.id, kind, error });
      }
    }
  }
  return { done, failed };
}

async function sweepKind(
  db: Db,
  fileStore: FileStore,
  now: Date,
  editionId: string,
  kind: RetentionKind,
  keeping: string[],
): Promise<number | null> {
  switch (kind) {
    case 'medical':
      return recorded(db, now, editionId, kind, (tx) => sweepMedical(tx, editionId, keeping));
    case 'contact':
      return recorded(db, now, editionId, kind, (tx) => sweepContact(tx, editionId, keeping));
    case 'positions': {
      const before = await deletePositions(db, editionId);
      return recorded(
        db,
        now,
        editionId,
        kind,
        async (tx) => {
          await clearTrackerPositions(tx, editionId);
          return 0;
        },
        before,
      );
    }
    case 'receipts': {
      const before = await deleteReceipts(db, fileStore, editionId);
      return recorded(db, now, editionId, kind, async () => 0, before);
    }
    case 'incidents':
      return recorded(db, now, editionId, kind, (tx) => anonymiseIncidents(tx, editionId));
  }
}

/** The worker's daily job: sweeps what is due, and is due again a day later (an hour after a failure). */
export function retentionJob(db: Db, fileStore: FileStore, log?: Warn): ScheduledJob {
  let nextRun = 0;
  return {
    name: 'retention',
    async run(now: Date) {
      if (now.getTime() >= nextRun) {
        let failures = 0;
        try {
          const { failed } = await sweepExpired(db, fileStore, now);
          failures = failed.length;
          for (const f of failed)
            log?.warn({ err: f.error, editionId: f.editionId, kind: f.kind }, 'retention sweep failed; retried later');
        } catch (err) {
          failures = 1;
          log?.warn({ err }, 'retention job failed; retried later');
        }
        nextRun = now.getTime() + (failures > 0 ? RETRY_MS : DAY_MS);
      }
      return new Date(nextRun);
    },
  };
}
