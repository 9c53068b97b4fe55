// Benchmark: editions (issue 29). Two figures, on each database:
//
// 1. The upgrade's time: a database at the level before editions (migration 0010) holding
//    1,000 verified riders, 6 stations, 6,000 scans and saved event settings is upgraded
//    by the server's own migrations (0011 makes the first edition from the settings). The
//    rows are counted before and after: the upgrade must lose none.
//    Then the rollover's time: a next edition, copied from the first, is made current
//    (rollover.service.ts): every entry keeps its result, and stays where it is.
// 2. The public reads with three past editions in the database (each with every rider's
//    entry, as a rollover leaves them): the editions list and a
//    rider's profile under autocannon, each
//    as a share of a bare Fastify hello-world measured in the same run (reads.ts's method).
//    And staff reads of a past edition against the same reads of the current one (issue 40:
//    within 1.5×): the incidents list and the dashboard's stats, every edition with the
//    same event day (6 stations, every rider's passage at each, an incident per 20 riders).
//
//   npx tsx apps/server/bench/editions.ts     (BENCH_EDITIONS_RIDERS, BENCH_EDITIONS_SCANS)
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { type Database, openDatabase } from '../src/db/client';
import { migrationsUpTo, runMigrations } from '../src/db/migrate';
import { editions } from '../src/db/schema/editions';
import { hashPassword } from '../src/lib/passwords';
import { makeCurrent } from '../src/modules/entries/rollover.service';
import { createUser } from '../src/modules/operator/operator.service';
import { STRONG_PASSWORD } from '../src/test/factories';
import {
  BENCH_PASSWORD,
  benchRiderRows,
  benchSignIn,
  DB_LABEL,
  type DbKind,
  freshPgDatabase,
  insertVerifiedRiders,
  type PgliteTemplate,
  pgReachable,
  runAsScript,
  seededServer,
  startHelloWorld,
  tempDir,
} from './common';
import { defaultReadOptions, measureTargets, type ReadOptions, runLabels, warmedRun } from './reads';

const RIDERS = Number(process.env.BENCH_EDITIONS_RIDERS ?? 1000);
const SCANS = Number(process.env.BENCH_EDITIONS_SCANS ?? 6000);
const STATIONS = 6;
const PAST_EDITIONS = 3;

export interface EditionsUpgradeResult {
  database: DbKind;
  riders: number;
  scans: number;
  upgradeSeconds: number;
  rowsBefore: number;
  rowsAfter: number;
  rolloverSeconds: number;
  entriesKept: number;
  /** One read of the past edition (`?edition=`): its riders and scans counted. */
  pastReadSeconds: number;
}

export interface EditionsReadRun {
  target: string;
  db: DbKind | null;
  reqPerSec: number;
  p99: number;
  failures: number;
}

export interface EditionsReport {
  upgrades: EditionsUpgradeResult[];
  reads: EditionsReadRun[];
  helloReqPerSec: number;
  options: ReadOptions;
}

/** Riders, stations and scans straight into the database (the API would take longer than the figure). */
async function seedInstall(database: Database, riders: number, scans: number) {
  const passwordHash = await hashPassword(BENCH_PASSWORD);
  const ids = await insertVerifiedRiders(database.db, benchRiderRows(riders, 'edition-rider', passwordHash));
  // In SQL: the install is at the level before editions (no edition_id yet).
  const made = (
    (await database.db.execute(sql`insert into stations (name, code, kind, "order")
      select 'Station ' || g, 'S' || g, 'checkpoint', g - 1 from generate_series(1, ${STATIONS}) g
      returning id`)) as unknown as { rows: Array<{ id: string }> }
  ).rows;
  const at = Date.now() - 6 * 3600_000;
  const rows = Array.from({ length: scans }, (_, i) => ({
    id: randomUUID(),
    stationId: made[i % made.length]?.id as string,
    riderId: ids[Math.floor(i / made.length) % ids.length] as string,
    riderNumber: (Math.floor(i / made.length) % ids.length) + 1,
    scannedAt: new Date(at + i * 1000),
    deviceId: `bench-device-${i % 20}`,
    source: 'manual' as const,
    status: 'accepted' as const,
  }));
  for (let i = 0; i < rows.length; i += 500)
    await database.db.execute(sql`insert into scans (id, station_id, rider_id, rider_number, scanned_at, device_id, source, status)
      select x.id, x.station_id, x.rider_id, x.rider_number, x.scanned_at, x.device_id, x.source::scan_source, x.status::scan_status
      from json_to_recordset(${JSON.stringify(
        rows.slice(i, i + 500).map((r) => ({
          id: r.id,
          station_id: r.stationId,
          rider_id: r.riderId,
          rider_number: r.riderNumber,
          scanned_at: r.scannedAt.toISOString(),
          device_id: r.deviceId,
          source: r.source,
          status: r.status,
        })),
      )}::json) as x(id uuid, station_id uuid, rider_id uuid, rider_number int, scanned_at timestamptz, device_id text, source text, status text)`);
}

async function countRows(database: Database): Promise<number> {
  const tables = (await database.db.execute(
    sql`select table_name as t from information_schema.tables where table_schema = 'public' and table_type = 'BASE TABLE'`,
  )) as unknown as { rows: Array<{ t: string }> };
  let total = 0;
  for (const { t } of tables.rows) {
    // The upgrade moves the settings row into the first edition: the one row is counted once.
    if (t === 'editions' || t === 'event_settings') continue;
    const r = (await database.db.execute(sql`select count(*)::int as n from ${sql.identifier(t)}`)) as unknown as {
      rows: Array<{ n: number }>;
    };
    total += Number(r.rows[0]?.n ?? 0);
  }
  return total;
}

export async function runEditionsUpgrade(kind: DbKind): Promise<EditionsUpgradeResult> {
  const dir = tempDir('rally-bench-editions-');
  const pgdb = kind === 'postgres' ? await freshPgDatabase() : null;
  const database = await openDatabase(pgdb ? { databaseUrl: pgdb.url } : { dataDir: `${dir.path}/db` });
  try {
    const older = migrationsUpTo('0010_messages', `${dir.path}/drizzle`);
    await runMigrations(database, older.folder);
    await seedInstall(database, RIDERS, SCANS);
    await database.db.execute(
      sql`insert into event_settings (id, name, starts_on, ends_on, hotline) values (1, 'Mindanao Warriors Endurance Rally 2026', '2026-11-14', '2026-11-16', '+63 917 555 0101')`,
    );
    const rowsBefore = await countRows(database);
    const t0 = performance.now();
    await runMigrations(database);
    const upgradeSeconds = (performance.now() - t0) / 1000;
    const rowsAfter = await countRows(database);
    const made = await database.db.select().from(editions);
    if (made.length !== 1 || !made[0]?.current || made[0].hotline !== '+63 917 555 0101')
      throw new Error(`the upgrade made ${JSON.stringify(made)}`);
    const [next] = await database.db
      .insert(editions)
      .values({ name: 'Mindanao Warriors Endurance Rally 2027', year: 2027, copiedFrom: made[0].id })
      .returning({ id: editions.id });
    const [organiser] = await database.db
      .execute(sql`select id from users limit 1`)
      .then((r) => (r as unknown as { rows: Array<{ id: string }> }).rows);
    const t1 = performance.now();
    const rolled = await makeCurrent(
      database.db,
      next?.id as string,
      { id: organiser?.id as string, name: 'Bench' },
      new Date(),
    );
    const rolloverSeconds = (performance.now() - t1) / 1000;
    if (rolled.archived.entries !== RIDERS) throw new Error(`the rollover kept ${rolled.archived.entries} entries`);
    // A staff read of the past edition: its entries and its scans counted.
    const t2 = performance.now();
    const past = await database.db.execute(
      sql`select (select count(*) from entries where edition_id = ${made[0].id}) as riders,
        (select count(*) from scans where edition_id = ${made[0].id}) as scans`,
    );
    const pastReadSeconds = (performance.now() - t2) / 1000;
    const counted = (past as unknown as { rows: Array<{ scans: number | string }> }).rows[0];
    if (Number(counted?.scans) !== SCANS) throw new Error(`the past edition read ${counted?.scans} scans`);
    return {
      database: kind,
      riders: RIDERS,
      scans: SCANS,
      upgradeSeconds,
      rowsBefore,
      rowsAfter,
      rolloverSeconds,
      entriesKept: rolled.archived.entries,
      pastReadSeconds,
    };
  } finally {
    await database.close();
    await pgdb?.drop();
    dir.remove();
  }
}

/** Staff reads compared between a past edition and the current one. */
const STAFF_READS = [
  { target: 'incidents', path: '/api/admin/incidents' },
  { target: 'dashboard stats', path: '/api/admin/dashboard/stats' },
];

/**
 * Edition `editionId`'s event day, straight into the database: 6 stations, every rider's
 * passage at each, an incident for every 20th rider.
 */
async function seedEventDay(database: Database, editionId: string) {
  await database.db.execute(sql`insert into stations (edition_id, name, code, kind, day, "order")
    select ${editionId}, 'Station ' || g, 'S' || g,
      (case when g = 1 then 'start' when g = ${STATIONS} then 'finish' else 'checkpoint' end)::station_kind, 1, g
    from generate_series(1, ${STATIONS}) g`);
  await database.db.execute(sql`insert into scans (id, edition_id, station_id, rider_id, rider_number, scanned_at,
      device_id, source, status)
    select gen_random_uuid(), ${editionId}, s.id, e.user_id, e.rider_number, now() - interval '1 day' + s."order" * interval '1 hour',
      'bench-device', 'manual', 'accepted'
    from stations s cross join entries e
    where s.edition_id = ${editionId} and e.edition_id = ${editionId} and e.rider_number is not null`);
  await database.db.execute(sql`insert into incidents (id, edition_id, rider_id, kind, note, source)
    select gen_random_uuid(), ${editionId}, e.user_id, 'mechanical', 'Flat tyre at the river crossing', 'rider'
    from entries e where e.edition_id = ${editionId} and e.rider_number % 20 = 0`);
}

export async function runEditionsReads(
  kinds: DbKind[],
  template: PgliteTemplate,
  opts: ReadOptions = defaultReadOptions(),
  log: (line: string) => void = console.log,
): Promise<Omit<EditionsReport, 'upgrades'>> {
  const hello = await startHelloWorld();
  const adminEmail = `bench-admin-${randomUUID().slice(0, 8)}@example.com`;
  const servers: Array<Awaited<ReturnType<typeof seededServer<{ rider: string; past: string }>>>> = [];
  try {
    for (const kind of kinds)
      servers.push(
        await seededServer(kind, template, {
          dirPrefix: 'rally-bench-editions-reads-',
          seed: async (database) => {
            const passwordHash = await hashPassword(BENCH_PASSWORD);
            const [first] = await insertVerifiedRiders(
              database.db,
              benchRiderRows(opts.taken, 'edition-reader', passwordHash),
            );
            // Three past editions beside the current one the upgrade made, each holding every
            // rider's verified, finished entry.
            const past = await database.db
              .insert(editions)
              .values(
                Array.from({ length: PAST_EDITIONS }, (_, i) => ({
                  name: `Mindanao Warriors Endurance Rally ${2022 + i}`,
                  year: 2022 + i,
                  startsOn: `${2022 + i}-11-14`,
                  endsOn: `${2022 + i}-11-16`,
                  hotline: '+63 917 555 0101',
                  closedAt: new Date(Date.UTC(2022 + i, 11, 1)),
                })),
              )
              .returning({ id: editions.id });
            for (const { id } of past) {
              await database.db.execute(sql`insert into entries (edition_id, user_id, verification_code, status,
                  verified_at, rider_number, rider_code, category, kit_name, result_state, finished_at, elapsed_ms,
                  created_at, updated_at)
                select ${id}, e.user_id, e.verification_code, e.status, e.verified_at, e.rider_number, e.rider_code,
                  e.category, u.kit_name, 'finished', now(), 30000000, e.created_at, e.updated_at
                from entries e join users u on u.id = e.user_id where e.edition_id = current_edition_id()`);
            }
            const current = await database.db.execute(sql`select current_edition_id() as id`);
            const currentId = (current as unknown as { rows: Array<{ id: string }> }).rows[0]?.id as string;
            for (const id of [...past.map((p) => p.id), currentId]) await seedEventDay(database, id);
            await createUser(database.db, { email: adminEmail, password: STRONG_PASSWORD, role: 'admin' });
            return { rider: first as string, past: past.at(-1)?.id as string };
          },
        }),
      );
    const targets: Array<{ target: string; db: DbKind | null; url: string; headers?: Record<string, string> }> = [
      { target: 'hello-world', db: null, url: `${hello.url}/hello` },
    ];
    for (const s of servers) {
      const listed = (await (await fetch(`${s.server.url}/api/editions`)).json()) as { data: unknown[] };
      if (listed.data.length !== PAST_EDITIONS + 1)
        throw new Error(`editions on ${s.server.url}: ${listed.data.length}`);
      const db = s.env.DATABASE_URL ? 'postgres' : 'pglite';
      targets.push({ target: 'editions list', db, url: `${s.server.url}/api/editions` });
      targets.push({ target: 'profile', db, url: `${s.server.url}/api/users/${s.seeded.rider}/profile` });
      const { token } = await benchSignIn(s.server.url, adminEmail);
      const headers = { authorization: `Bearer ${token}` };
      for (const read of STAFF_READS) {
        targets.push({ target: `${read.target} (current edition)`, db, url: `${s.server.url}${read.path}`, headers });
        const past = `${s.server.url}${read.path}?edition=${s.seeded.past}`;
        targets.push({ target: `${read.target} (past edition)`, db, url: past, headers });
      }
    }
    targets.push({ target: 'hello-world', db: null, url: `${hello.url}/hello` });
    const { runs, helloReqPerSec } = await measureTargets(targets, opts, log, async (t) => {
      const r = await warmedRun(
        {
          url: (t as { url: string }).url,
          connections: opts.connections,
          pipelining: 1,
          headers: (t as { headers?: Record<string, string> }).headers,
        },
        opts,
      );
      return { reqPerSec: r.requests.average, p99: r.latency.p99, failures: r.non2xx + r.errors + r.timeouts };
    });
    return { reads: runs, helloReqPerSec, options: opts };
  } finally {
    for (const s of servers) await s.close();
    await hello.stop();
  }
}

export async function runEditions(kinds: DbKind[], template: PgliteTemplate): Promise<EditionsReport> {
  const upgrades: EditionsUpgradeResult[] = [];
  for (const kind of kinds) {
    console.log(`  the upgrade on ${DB_LABEL[kind]}: ${RIDERS} riders, ${SCANS} scans...`);
    upgrades.push(await runEditionsUpgrade(kind));
  }
  return { upgrades, ...(await runEditionsReads(kinds, template)) };
}

export const editionsUpgradeRows = (r: EditionsReport) =>
  r.upgrades.map((u) => ({
    database: DB_LABEL[u.database],
    riders: u.riders,
    scans: u.scans,
    'upgrade time': `${u.upgradeSeconds.toFixed(2)} s`,
    'rows before / after': `${u.rowsBefore} / ${u.rowsAfter}`,
    lost: u.rowsBefore - u.rowsAfter,
    'rollover time': `${u.rolloverSeconds.toFixed(2)} s`,
    'entries kept': `${u.entriesKept}`,
    'past-edition read': `${(u.pastReadSeconds * 1000).toFixed(0)} ms`,
  }));

/**
 * Each staff read of a past edition as a share of the same read of the current edition, per
 * database (issue 40's goal: within 1.5×, a share of at least 67%).
 */
export function editionsPastShares(r: EditionsReport): string[] {
  const lines: string[] = [];
  for (const db of ['pglite', 'postgres'] as const)
    for (const read of STAFF_READS) {
      const rate = (which: string) =>
        r.reads.find((x) => x.db === db && x.target === `${read.target} (${which} edition)`)?.reqPerSec;
      const current = rate('current');
      const past = rate('past');
      if (!current || past === undefined) continue;
      const share = (100 * past) / current;
      lines.push(
        `- ${read.target}, ${DB_LABEL[db]}: the past edition at ${share.toFixed(0)}% of the current edition's rate (${(current / Math.max(past, 0.001)).toFixed(1)}× slower; goal within 1.5×: ${share >= 100 / 1.5 ? 'met' : 'MISSED'})`,
      );
    }
  return lines;
}

export const editionsReadRows = (r: EditionsReport) => {
  const label = runLabels();
  return r.reads.map((run) => ({
    ...label(run),
    'req/s': Math.round(run.reqPerSec),
    'of hello-world': `${((100 * run.reqPerSec) / r.helloReqPerSec).toFixed(1)}%`,
    'p99 (ms)': run.p99,
    failures: run.failures,
  }));
};

runAsScript(import.meta.url, async (template) => {
  const kinds: DbKind[] = (await pgReachable()) ? ['pglite', 'postgres'] : ['pglite'];
  const report = await runEditions(kinds, template);
  console.table(editionsUpgradeRows(report));
  console.table(editionsReadRows(report));
});
