// Builds the data exports in the background (DESIGN.md §12). The message worker's loop runs
// this job on every round (ScheduledJob): it removes what expired and starts building
// whatever is pending, oldest first, off the loop (an SOS message must not wait for a ZIP).
// The route kicks the build too, right after a request, so the rider does not wait for the
// next round. Each build holds its row `for update skip locked` for the length of its
// transaction: two instances never build the same export, and one that dies mid-build leaves
// the row pending for the next round of any instance.
import { DATA_EXPORT_DAYS } from '@rally/shared/catalog/privacy';
import { and, eq, lte, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { dataExports } from '../../db/schema/privacy';
import { bytesParam } from '../../lib/file-bytes';
import type { FileStore } from '../../lib/file-store';
import { rowsOf } from '../../lib/sql-text';
import type { ScheduledJob } from '../messages/outbox-worker';
import { collectExport, zipExport } from './build-export';

const DAY_MS = 24 * 3_600_000;
/** How often the loop looks again (expiry and a crashed instance's leftovers). */
const TICK_MS = 60_000;

/** The export's row goes with its ZIP once its days are over. */
export async function deleteExpiredExports(db: Db, now: Date): Promise<number> {
  const gone = await db.delete(dataExports).where(lte(dataExports.expiresAt, now)).returning({ id: dataExports.id });
  return gone.length;
}

/**
 * Builds the oldest pending export, if any; false when none was left to build. A build that
 * throws marks its export failed (the rider may ask again) rather than retrying forever.
 */
export async function buildNextExport(db: Db, store: FileStore, now: Date): Promise<boolean> {
  let claimed: string | null = null;
  try {
    return await db.transaction(async (tx) => {
      const [row] = rowsOf<{ id: string; user_id: string }>(
        await tx.execute(
          sql`select id, user_id from data_exports where status = 'pending' order by created_at limit 1 for update skip locked`,
        ),
      );
      if (!row) return false;
      claimed = row.id;
      const content = await collectExport(tx, store, row.user_id, now);
      // The account went meanwhile: its exports went with it (the key cascades).
      if (!content) return true;
      const zip = Buffer.from(zipExport(content));
      await tx
        .update(dataExports)
        .set({
          status: 'ready',
          zip: bytesParam(zip),
          bytes: zip.length,
          error: null,
          readyAt: now,
          expiresAt: new Date(now.getTime() + DATA_EXPORT_DAYS * DAY_MS),
        })
        .where(eq(dataExports.id, row.id));
      return true;
    });
  } catch (err) {
    if (claimed === null) throw err;
    await db
      .update(dataExports)
      .set({ status: 'failed', error: err instanceof Error ? err.message.slice(0, 500) : String(err) })
      .where(and(eq(dataExports.id, claimed), eq(dataExports.status, 'pending')));
    return true;
  }
}

/** Builds pending exports one after another, once at a time per process. */
class ExportBuilder {
  private running: Promise<void> | null = null;
  private again = false;

  constructor(
    private readonly db: Db,
    private readonly store: FileStore,
  ) {}

  kick(now: Date): void {
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = this.drain(now)
      // The database away: the rows stay pending, and the loop's next round kicks again.
      .catch(() => undefined)
      .finally(() => {
        this.running = null;
        if (this.again) {
          this.again = false;
          this.kick(new Date());
        }
      });
  }

  private async drain(now: Date): Promise<void> {
    let at = now;
    while (await buildNextExport(this.db, this.store, at)) at = new Date(Math.max(Date.now(), at.getTime()));
  }

  /** Resolves once nothing is being built (tests wait on it, never on time). */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }
}

// The route reaches this process's builder through the database handle both were given:
// the job is made where the file store is (app.ts), the routes are not handed the store.
const builders = new WeakMap<Db, ExportBuilder>();

/** Starts building what is pending now, after the current request (no-op without a worker). */
export function kickDataExports(db: Db, now: Date): void {
  const builder = builders.get(db);
  if (builder) setImmediate(() => builder.kick(now));
}

/** Resolves once this process has built what was pending (tests). */
export async function dataExportsIdle(db: Db): Promise<void> {
  await new Promise((resolve) => setImmediate(resolve));
  await builders.get(db)?.idle();
}

export function dataExportJob(db: Db, store: FileStore): ScheduledJob {
  const builder = new ExportBuilder(db, store);
  builders.set(db, builder);
  return {
    name: 'data-export',
    run: async (now: Date) => {
      await deleteExpiredExports(db, now);
      builder.kick(now);
      return new Date(now.getTime() + TICK_MS);
    },
  };
}
