// Benchmark: board fan-out (issue 15). The real server on a fresh database with 1,000
// verified riders and 6 stations; 200 control boards hold the event stream open
// (GET /api/admin/event/stream, Server-Sent Events over the database's LISTEN/NOTIFY);
// then a burst of 1,000 scans is synced through the API (10 devices at once, batches of
// 100). For every scan and every board: the time from the moment its batch was sent to
// the moment that board parsed the scan's event (the burst's own queueing in the ingest
// included), and from the moment the sync was answered (its transaction committed: the
// push alone; negative when the event beat the HTTP answer). Goal: p95 ≤ 5 s.
//
//   npx tsx apps/server/bench/board-fanout.ts        (PGlite, and PostgreSQL when reachable)
//   BENCH_BOARDS (200), BENCH_BOARD_SCANS (1000)
import { randomUUID } from 'node:crypto';
import { openSse, type SseConnection, waitLive } from '../src/test/sse-client';
import {
  benchLogin,
  DB_LABEL,
  type DbKind,
  type PgliteTemplate,
  percentile,
  pgReachable,
  runAsScript,
  seededServer,
} from './common';
import { seed } from './scan-sync';

const BOARDS = Number(process.env.BENCH_BOARDS ?? 200);
const SCANS = Number(process.env.BENCH_BOARD_SCANS ?? 1000);
const DEVICES = 10;
const BATCH = 100;
export const BOARD_GOAL_P95_MS = 5000;

export interface BoardFanoutResult {
  database: DbKind;
  boards: number;
  scans: number;
  /** (scan, board) pairs delivered, of scans × boards. */
  delivered: number;
  expected: number;
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
  /** The same from the sync's answer (commit) to the board. */
  answerP50Ms: number;
  answerP95Ms: number;
  /** From the first batch sent to the last event on the last board. */
  allDeliveredS: number;
  /** From the first batch sent to the last sync answered. */
  syncS: number;
  /** GET /api/admin/event/board with 1,000 riders on course, median and max of 20 reads. */
  boardReadP50Ms: number;
  boardReadMaxMs: number;
}

const log = (line: string) => console.error(`  board-fanout | ${line}`);

export async function runBoardFanout(kind: DbKind, template: PgliteTemplate | null): Promise<BoardFanoutResult> {
  const { server, seeded, close } = await seededServer(kind, template, {
    dirPrefix: 'rally-bench-board-',
    port: 3324,
    seed,
  });
  const boards: SseConnection[] = [];
  try {
    const tokens = await Promise.all(seeded.marshalEmails.slice(0, DEVICES + 1).map((e) => benchLogin(server.url, e)));
    const viewer = tokens[DEVICES] as string;
    const streamUrl = `${server.url}/api/admin/event/stream`;
    const sentAt = new Map<string, number>();
    const answeredAt = new Map<string, number>();
    const latencies: number[] = [];
    const received: Array<{ scanId: string; at: number }> = [];
    let lastAt = 0;
    for (let i = 0; i < BOARDS; i++) {
      const conn = await openSse(streamUrl, viewer);
      if (conn.status !== 200) throw new Error(`board ${i}: ${conn.status}`);
      conn.onEvent((e) => {
        if (e.event !== 'scan') return;
        // The id alone, without parsing the whole event: 200,000 of them land in this one process.
        const scanId = /"scanId":"([^"]+)"/.exec(e.data)?.[1];
        const sent = scanId === undefined ? undefined : sentAt.get(scanId);
        if (scanId === undefined || sent === undefined) return;
        latencies.push(e.receivedAt - sent);
        received.push({ scanId, at: e.receivedAt });
        lastAt = Math.max(lastAt, e.receivedAt);
      });
      boards.push(conn);
    }
    await Promise.all(boards.map((b) => waitLive(b, 30_000)));
    log(`${DB_LABEL[kind]}: ${BOARDS} boards connected and live`);

    // The burst: every rider at the start station, 10 devices syncing batches of 100 at once.
    const stationId = seeded.stationIds[0] as string;
    const scans = seeded.codes.slice(0, SCANS).map((riderCode, i) => ({
      id: randomUUID(),
      stationId,
      riderCode,
      scannedAt: new Date().toISOString(),
      deviceId: `phone-${i % DEVICES}`,
      source: 'camera' as const,
    }));
    const batches: (typeof scans)[] = [];
    for (let i = 0; i < scans.length; i += BATCH) batches.push(scans.slice(i, i + BATCH));
    const t0 = performance.now();
    let next = 0;
    await Promise.all(
      Array.from({ length: DEVICES }, async (_, d) => {
        while (next < batches.length) {
          const batch = batches[next++] as typeof scans;
          const at = performance.now();
          for (const s of batch) sentAt.set(s.id, at);
          const res = await fetch(`${server.url}/api/admin/scans`, {
            method: 'POST',
            headers: { 'content-type': 'application/json', authorization: `Bearer ${tokens[d]}` },
            body: JSON.stringify({ scans: batch }),
          });
          if (!res.ok) throw new Error(`sync: ${res.status} ${await res.text()}`);
          await res.arrayBuffer();
          const done = performance.now();
          for (const s of batch) answeredAt.set(s.id, done);
        }
      }),
    );
    const syncS = (performance.now() - t0) / 1000;
    const expected = scans.length * BOARDS;
    const deadline = Date.now() + 60_000;
    while (latencies.length < expected && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    // What a board refetches after a reconnect: the counts per station, 1,000 riders on course.
    const reads: number[] = [];
    for (let i = 0; i < 20; i++) {
      const r0 = performance.now();
      const res = await fetch(`${server.url}/api/admin/event/board`, {
        headers: { authorization: `Bearer ${viewer}` },
      });
      if (!res.ok) throw new Error(`board: ${res.status}`);
      await res.arrayBuffer();
      reads.push(performance.now() - r0);
    }
    reads.sort((a, b) => a - b);
    const sorted = [...latencies].sort((a, b) => a - b);
    const fromAnswer = received.map((r) => r.at - (answeredAt.get(r.scanId) ?? r.at)).sort((a, b) => a - b);
    const result: BoardFanoutResult = {
      database: kind,
      boards: BOARDS,
      scans: scans.length,
      delivered: latencies.length,
      expected,
      p50Ms: Math.round(percentile(sorted, 0.5)),
      p95Ms: Math.round(percentile(sorted, 0.95)),
      maxMs: Math.round(sorted.at(-1) ?? Number.NaN),
      answerP50Ms: Math.round(percentile(fromAnswer, 0.5)),
      answerP95Ms: Math.round(percentile(fromAnswer, 0.95)),
      allDeliveredS: Number(((lastAt - t0) / 1000).toFixed(2)),
      syncS: Number(syncS.toFixed(2)),
      boardReadP50Ms: Math.round(percentile(reads, 0.5)),
      boardReadMaxMs: Math.round(reads.at(-1) ?? Number.NaN),
    };
    log(
      `${DB_LABEL[kind]}: ${result.delivered}/${expected} delivered, p50 ${result.p50Ms} ms, p95 ${result.p95Ms} ms, max ${result.maxMs} ms; from the answer p50 ${result.answerP50Ms} ms, p95 ${result.answerP95Ms} ms`,
    );
    return result;
  } finally {
    for (const b of boards) b.close();
    await close();
  }
}

export function boardFanoutRows(results: BoardFanoutResult[]) {
  return results.map((r) => ({
    database: DB_LABEL[r.database],
    boards: r.boards,
    scans: r.scans,
    delivered: `${r.delivered} / ${r.expected}`,
    'sync → board p50 ms': r.p50Ms,
    'p95 ms (goal ≤ 5000)': r.p95Ms,
    'max ms': r.maxMs,
    'answer → board p50 ms': r.answerP50Ms,
    'answer → board p95 ms': r.answerP95Ms,
    'burst synced s': r.syncS,
    'all on every board s': r.allDeliveredS,
    'GET board p50 / max ms': `${r.boardReadP50Ms} / ${r.boardReadMaxMs}`,
  }));
}

runAsScript(import.meta.url, async (template) => {
  const results = [await runBoardFanout('pglite', template)];
  if (await pgReachable()) results.push(await runBoardFanout('postgres', null));
  console.table(boardFanoutRows(results));
});
