// Benchmark: 200 riders claim the same number at the same instant, through the real
// multipart registration route of a fresh server. The unique index must let exactly one
// through; the others must hear 409 "Rider number N is already taken". How long the last
// of them waits shows what a loser costs the server before it is refused.
//
//   npx tsx apps/server/bench/contention.ts        both databases (PostgreSQL when reachable)
import { multipart, registrationFields } from '../src/test/factories';
import {
  DB_LABEL,
  type DbKind,
  freshServer,
  type PgliteTemplate,
  percentile,
  pgReachable,
  pgTransactionStats,
  phoneFiles,
  runAsScript,
} from './common';

export interface ContentionResult {
  db: DbKind;
  claims: number;
  riderNumber: number;
  winners: number;
  conflicts: number;
  /** Anything but 201 or a 409 RIDER_NUMBER_TAKEN (including network failures). */
  others: number;
  statuses: Record<string, number>;
  /** First request sent to last answer received. */
  allAnsweredMs: number;
  winnerMs: number;
  conflictP50Ms: number;
  conflictMaxMs: number;
  /** Numbers the server lists as taken afterwards: must be exactly [riderNumber]. */
  takenAfter: number[];
  /**
   * PostgreSQL only: rolled-back transactions, i.e. losers that passed the cheap
   * "is the number free?" look-up, decoded both images and hashed a password before the
   * unique index refused them. One server queues claims of a number and re-checks it at
   * each one's turn, so this is 0 there; the index is what guards several servers.
   * (PGlite's statistics are not reachable from outside.)
   */
  lostAtIndex: number | null;
}

export async function runContention(
  kind: DbKind,
  template: PgliteTemplate,
  opts: { claims?: number; riderNumber?: number } = {},
): Promise<ContentionResult> {
  const claims = opts.claims ?? 200;
  const riderNumber = opts.riderNumber ?? 777;
  // The same phone-sized uploads as the rush: a loser that gets past the cheap checks
  // pays for decoding them and for a password hash before the index refuses it.
  const files = await phoneFiles();
  const bodies = Array.from({ length: claims }, () =>
    multipart(registrationFields({ riderNumber: String(riderNumber), paymentMethod: 'gcash' }), [
      { field: 'profileImage', filename: 'profile.jpg', contentType: 'image/jpeg', data: files.profile },
      { field: 'paymentReceipt', filename: 'receipt.jpg', contentType: 'image/jpeg', data: files.receipt },
    ]),
  );
  const fresh = await freshServer(kind, template);
  try {
    const url = `${fresh.url}/api/auth/register-with-uploads`;
    const statuses: Record<string, number> = {};
    const conflictMs: number[] = [];
    let winners = 0;
    let conflicts = 0;
    let others = 0;
    let winnerMs = Number.NaN;
    const start = performance.now();
    await Promise.all(
      bodies.map(async (body) => {
        const t0 = performance.now();
        try {
          const res = await fetch(url, { method: 'POST', headers: body.headers, body: body.payload });
          const json = (await res.json()) as { code?: string };
          const ms = performance.now() - t0;
          statuses[res.status] = (statuses[res.status] ?? 0) + 1;
          if (res.status === 201) {
            winners++;
            winnerMs = ms;
          } else if (res.status === 409 && json.code === 'RIDER_NUMBER_TAKEN') {
            conflicts++;
            conflictMs.push(ms);
          } else others++;
        } catch {
          statuses.network = (statuses.network ?? 0) + 1;
          others++;
        }
      }),
    );
    const allAnsweredMs = performance.now() - start;
    const taken = (await (await fetch(`${fresh.url}/api/rider-numbers/taken`)).json()) as {
      data: { takenNumbers: number[] };
    };
    conflictMs.sort((a, b) => a - b);
    let lostAtIndex: number | null = null;
    if (fresh.pgDatabase) {
      // Backends flush their statistics when they exit: stop the server (its pool) first.
      await fresh.stop();
      await new Promise((r) => setTimeout(r, 500));
      lostAtIndex = (await pgTransactionStats(fresh.pgDatabase)).rollbacks;
    }
    return {
      db: kind,
      claims,
      riderNumber,
      winners,
      conflicts,
      others,
      statuses,
      allAnsweredMs,
      winnerMs,
      conflictP50Ms: percentile(conflictMs, 0.5),
      conflictMaxMs: conflictMs.at(-1) ?? Number.NaN,
      takenAfter: taken.data.takenNumbers,
      lostAtIndex,
    };
  } finally {
    await fresh.close();
  }
}

export function contentionRows(results: ContentionResult[]) {
  return results.map((r) => ({
    database: DB_LABEL[r.db],
    claims: r.claims,
    'winners (201)': r.winners,
    'taken (409)': r.conflicts,
    other: r.others,
    'all answered s': (r.allAnsweredMs / 1000).toFixed(2),
    'winner s': (r.winnerMs / 1000).toFixed(2),
    '409 p50 s': (r.conflictP50Ms / 1000).toFixed(2),
    '409 max s': (r.conflictMaxMs / 1000).toFixed(2),
    'taken after': r.takenAfter.join(',') || '-',
    'lost at the index': r.lostAtIndex ?? 'n/a',
  }));
}

runAsScript(import.meta.url, async (template) => {
  const results = [await runContention('pglite', template)];
  if (await pgReachable()) results.push(await runContention('postgres', template));
  console.table(contentionRows(results));
});
