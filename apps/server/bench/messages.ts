// Benchmark: messages (issue 28). The real server on a fresh database, with the real
// channels pointed at local providers that speak the real protocols: an SMTP server, a push
// service that checks the VAPID signature and decrypts each payload as a browser would.
//
//   1. emails: BENCH_EMAILS (1,000) queued at once, delivered to the SMTP server; on
//      PostgreSQL by two instances with one killed (SIGKILL) a third of the way: time,
//      lost, and delivered twice (the same Message-ID).
//   2. followers: one scan that BENCH_FOLLOWERS (1,000) push followers hear about: time from
//      the scan's POST to the last delivery (goal ≤ 10 s).
//   3. SOS: BENCH_SOS_RIDERS (50) riders press SOS; BENCH_ON_CALL (10) on-call staff each
//      have a browser subscribed: SOS POST to each push delivery, p95 (goal ≤ 5 s).
//
//   npx tsx apps/server/bench/messages.ts        (PGlite, and PostgreSQL when reachable)
import { randomUUID } from 'node:crypto';
import type { Database } from '../src/db/client';
import { openDatabase } from '../src/db/client';
import { runMigrations } from '../src/db/migrate';
import { stations } from '../src/db/schema/event-day';
import { followers, notificationSettings, pushSubscriptions } from '../src/db/schema/messages';
import { users } from '../src/db/schema/users';
import { hashPassword } from '../src/lib/passwords';
import { enqueueMessages } from '../src/modules/messages/outbox';
import { startServer } from '../src/test/processes';
import { startPushService } from '../src/test/push-service';
import { startSmsGatewaySim } from '../src/test/sms-gateway-sim';
import { startSmtpSink } from '../src/test/smtp-sink';
import { markdownTable, writeSectionInPlace } from './benchmarks-doc';
import {
  BENCH_PASSWORD,
  benchLogin,
  benchRiderRows,
  DB_LABEL,
  type DbKind,
  freshPgDatabase,
  insertVerifiedRiders,
  type PgliteTemplate,
  percentile,
  pgReachable,
  runAsScript,
  SERVER_ENV,
  seededServer,
  tempDir,
} from './common';

const EMAILS = Number(process.env.BENCH_EMAILS ?? 1000);
const FOLLOWERS = Number(process.env.BENCH_FOLLOWERS ?? 1000);
const SOS_RIDERS = Number(process.env.BENCH_SOS_RIDERS ?? 50);
const ON_CALL = Number(process.env.BENCH_ON_CALL ?? 10);
export const FOLLOWERS_GOAL_MS = 10_000;
export const SOS_PUSH_GOAL_P95_MS = 5_000;
/** The escalation period of the benchmark's server, and the slack the goal gives after it. */
const ESCALATE_AFTER_S = Number(process.env.BENCH_ESCALATE_AFTER_S ?? 10);
export const ESCALATION_SLACK_MS = 5_000;
const ESCALATION_CALLS = 5;

const log = (line: string) => console.error(`  messages | ${line}`);
const MAIL_FROM = 'rally@bench.test';

async function until(check: () => boolean | Promise<boolean>, ms: number, what: string) {
  const deadline = performance.now() + ms;
  while (!(await check())) {
    if (performance.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export interface EmailResult {
  database: DbKind;
  instances: number;
  killed: boolean;
  emails: number;
  seconds: number;
  lost: number;
  twice: number;
}

/** 1,000 emails queued in one transaction; PostgreSQL: two instances, one killed midway. */
export async function runEmails(kind: DbKind, template: PgliteTemplate | null): Promise<EmailResult> {
  const sink = await startSmtpSink();
  const dir = kind === 'pglite' && template ? template.copy() : tempDir('rally-bench-mail-');
  const pgdb = kind === 'postgres' ? await freshPgDatabase() : null;
  const env = {
    ...(pgdb ? { DATABASE_URL: pgdb.url } : {}),
    DATA_DIR: dir.path,
    ...SERVER_ENV,
    SMTP_URL: sink.url,
    MAIL_FROM,
  };
  // PGlite belongs to one process: the rows are written through the server's own CLI-free
  // path, the database opened before the server starts.
  const database = await openDatabase(pgdb ? { databaseUrl: pgdb.url } : { dataDir: dir.path });
  await runMigrations(database);
  const servers = [];
  try {
    let queuedAt: number;
    if (kind === 'pglite') {
      await enqueue(database, EMAILS);
      await database.close();
      queuedAt = performance.now();
      servers.push(await startServer(env));
    } else {
      servers.push(await startServer(env), await startServer(env));
      queuedAt = performance.now();
      await enqueue(database, EMAILS);
    }
    let killed = false;
    if (servers.length === 2) {
      await until(() => sink.messages.length >= EMAILS / 3, 120_000, 'a third of the emails');
      await servers[0]?.stop('SIGKILL');
      killed = true;
      log(`${DB_LABEL[kind]}: one instance killed after ${sink.messages.length} emails`);
    }
    // The dead instance's leases end after 60 s on their own; the survivor's timer wakes then.
    await until(() => distinct(sink.messages) >= EMAILS, 180_000, 'every email');
    const seconds = (performance.now() - queuedAt) / 1000;
    const ids = sink.messages.map((m) => m.header('message-id') ?? '');
    return {
      database: kind,
      instances: servers.length,
      killed,
      emails: EMAILS,
      seconds,
      lost: EMAILS - new Set(ids).size,
      twice: ids.length - new Set(ids).size,
    };
  } finally {
    for (const s of servers) await s.stop().catch(() => {});
    if (kind === 'postgres') await database.close();
    await pgdb?.drop();
    dir.remove();
    await sink.close();
  }
}

const distinct = (messages: Array<{ header(name: string): string | undefined }>) =>
  new Set(messages.map((m) => m.header('message-id'))).size;

async function enqueue(database: Database, n: number) {
  await database.db.transaction((tx) =>
    enqueueMessages(
      tx,
      Array.from({ length: n }, (_, i) => ({
        channel: 'email' as const,
        template: 'test_message' as const,
        address: `bench-${i}@example.test`,
        data: { staffName: `Bench ${i}` },
      })),
    ),
  );
}

export interface FollowersResult {
  database: DbKind;
  followers: number;
  delivered: number;
  lastDeliveryMs: number;
}

/** One scan; every push follower of the rider hears it. */
export async function runFollowers(kind: DbKind, template: PgliteTemplate | null): Promise<FollowersResult> {
  const push = await startPushService();
  const subs = Array.from({ length: FOLLOWERS }, () => push.subscribe());
  const { server, seeded, close } = await seededServer(kind, template, {
    dirPrefix: 'rally-bench-follow-',
    env: { PUSH_ENDPOINT_HOSTS: push.host },
    seed: async (database) => {
      const hash = await hashPassword(BENCH_PASSWORD);
      const [rider] = benchRiderRows(1, 'follow.rider', hash);
      const [riderId] = await insertVerifiedRiders(database.db, [rider as NonNullable<typeof rider>]);
      await database.db.insert(users).values({
        email: 'follow.marshal@bench.test',
        passwordHash: hash,
        firstName: 'Marshal',
        lastName: 'Bench',
        role: 'marshall',
      });
      const [station] = await database.db
        .insert(stations)
        .values({ name: 'Checkpoint 1', code: 'CP1', kind: 'checkpoint', order: 1 })
        .returning({ id: stations.id });
      for (let i = 0; i < subs.length; i += 250) {
        const rows = await database.db
          .insert(pushSubscriptions)
          .values(
            subs.slice(i, i + 250).map((s) => ({ endpoint: s.endpoint, p256dh: s.keys.p256dh, auth: s.keys.auth })),
          )
          .returning({ id: pushSubscriptions.id });
        await database.db.insert(followers).values(
          rows.map((r) => ({
            riderId: riderId as string,
            pushSubscriptionId: r.id,
            tokenHash: randomUUID(),
            confirmedAt: new Date(),
          })),
        );
      }
      return { riderCode: rider?.riderCode as string, stationId: station?.id as string };
    },
  });
  try {
    const token = await benchLogin(server.url, 'follow.marshal@bench.test');
    const t0 = performance.now();
    const res = await fetch(`${server.url}/api/admin/scans`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({
        scans: [
          {
            id: randomUUID(),
            riderCode: seeded.riderCode,
            stationId: seeded.stationId,
            scannedAt: new Date().toISOString(),
            deviceId: 'bench-phone',
            source: 'camera',
          },
        ],
      }),
    });
    if (!res.ok) throw new Error(`scan answered ${res.status} ${await res.text()}`);
    await until(() => push.delivered.length >= FOLLOWERS, 120_000, 'every follower push');
    const lastDeliveryMs = performance.now() - t0;
    if (push.refused.length) throw new Error(`the push service refused ${push.refused.length}: ${push.refused[0]}`);
    return { database: kind, followers: FOLLOWERS, delivered: push.delivered.length, lastDeliveryMs };
  } finally {
    await close();
    await push.close();
  }
}

export interface SosPushResult {
  database: DbKind;
  calls: number;
  onCall: number;
  deliveries: number;
  p50Ms: number;
  p95Ms: number;
  maxMs: number;
}

/** SOS presses; each on-call staff member's browser gets a push per incident. */
export async function runSosPush(kind: DbKind, template: PgliteTemplate | null): Promise<SosPushResult> {
  const push = await startPushService();
  const subs = Array.from({ length: ON_CALL }, () => push.subscribe());
  const { server, close } = await seededServer(kind, template, {
    dirPrefix: 'rally-bench-sospush-',
    env: { PUSH_ENDPOINT_HOSTS: push.host },
    seed: async (database) => {
      const hash = await hashPassword(BENCH_PASSWORD);
      await insertVerifiedRiders(database.db, benchRiderRows(SOS_RIDERS, 'sospush.rider', hash));
      const staff = await database.db
        .insert(users)
        .values(
          subs.map((_, i) => ({
            email: `sospush.marshal${i}@bench.test`,
            passwordHash: hash,
            firstName: 'Marshal',
            lastName: String(i),
            role: 'marshall' as const,
          })),
        )
        .returning({ id: users.id });
      await database.db.insert(notificationSettings).values(staff.map((s) => ({ userId: s.id, onCall: true })));
      await database.db.insert(pushSubscriptions).values(
        subs.map((s, i) => ({
          userId: staff[i]?.id,
          endpoint: s.endpoint,
          p256dh: s.keys.p256dh,
          auth: s.keys.auth,
        })),
      );
      return null;
    },
  });
  try {
    const tokens = await Promise.all(
      Array.from({ length: SOS_RIDERS }, (_, i) => benchLogin(server.url, `sospush.rider${i + 1}@bench.test`)),
    );
    const sentAt = new Map<string, number>();
    await Promise.all(
      tokens.map(async (token) => {
        const id = randomUUID();
        sentAt.set(id, performance.now());
        const res = await fetch(`${server.url}/api/my/sos`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
          body: JSON.stringify({ id, kind: 'crash' }),
        });
        if (res.status !== 201) throw new Error(`sos answered ${res.status} ${await res.text()}`);
      }),
    );
    const expected = SOS_RIDERS * ON_CALL;
    const arrivals: number[] = [];
    const seen = new Set<number>();
    await until(
      () => {
        push.delivered.forEach((d, i) => {
          if (seen.has(i)) return;
          seen.add(i);
          const id = /incident=([0-9a-f-]{36})/.exec(d.text)?.[1];
          const at = id ? sentAt.get(id) : undefined;
          if (at !== undefined) arrivals.push(performance.now() - at);
        });
        return push.delivered.length >= expected;
      },
      60_000,
      'every on-call push',
    );
    arrivals.sort((a, b) => a - b);
    return {
      database: kind,
      calls: SOS_RIDERS,
      onCall: ON_CALL,
      deliveries: arrivals.length,
      p50Ms: percentile(arrivals, 0.5),
      p95Ms: percentile(arrivals, 0.95),
      maxMs: arrivals.at(-1) ?? Number.NaN,
    };
  } finally {
    await close();
    await push.close();
  }
}

export function messagesRows(r: MessagesReport) {
  return [
    ...r.emails.map((e) => ({
      step: `${e.emails} emails${e.killed ? ', one of 2 instances killed' : ''}`,
      database: DB_LABEL[e.database],
      result: `${e.seconds.toFixed(1)} s, ${e.lost} lost, ${e.twice} twice`,
      goal: '0 lost',
      met: e.lost === 0 ? 'met' : 'MISSED',
    })),
    ...r.followers.map((f) => ({
      step: `1 scan → ${f.followers} push followers`,
      database: DB_LABEL[f.database],
      result: `last delivery ${(f.lastDeliveryMs / 1000).toFixed(2)} s`,
      goal: `≤ ${FOLLOWERS_GOAL_MS / 1000} s`,
      met: f.delivered >= f.followers && f.lastDeliveryMs <= FOLLOWERS_GOAL_MS ? 'met' : 'MISSED',
    })),
    ...r.sos.map((s) => ({
      step: `${s.calls} SOS → ${s.onCall} on-call browsers`,
      database: DB_LABEL[s.database],
      result: `p50 ${Math.round(s.p50Ms)} ms, p95 ${Math.round(s.p95Ms)} ms, max ${Math.round(s.maxMs)} ms`,
      goal: `p95 ≤ ${SOS_PUSH_GOAL_P95_MS / 1000} s`,
      met: s.deliveries >= s.calls * s.onCall && s.p95Ms <= SOS_PUSH_GOAL_P95_MS ? 'met' : 'MISSED',
    })),
    ...(r.escalation ?? []).map((e) => ({
      step: `${e.calls} SOS unacknowledged → SMS to on-call phones (period ${e.periodS} s)`,
      database: DB_LABEL[e.database],
      result: `first text after ${(e.maxMs / 1000).toFixed(1)} s at worst (${e.texts} texts)`,
      goal: `≤ ${e.periodS} + ${ESCALATION_SLACK_MS / 1000} s`,
      met: e.maxMs <= e.periodS * 1000 + ESCALATION_SLACK_MS ? 'met' : 'MISSED',
    })),
  ];
}

export interface EscalationResult {
  database: DbKind;
  periodS: number;
  calls: number;
  texts: number;
  /** SOS POST to its first text at an on-call phone, worst of the calls. */
  maxMs: number;
}

/** Unacknowledged SOS calls: texted to the on-call phones after the period. */
export async function runEscalation(kind: DbKind, template: PgliteTemplate | null): Promise<EscalationResult> {
  const phone = await startSmsGatewaySim();
  const { server, close } = await seededServer(kind, template, {
    dirPrefix: 'rally-bench-escalate-',
    env: { SMS_GATEWAY_URL: phone.url, SOS_ESCALATE_AFTER_S: String(ESCALATE_AFTER_S) },
    seed: async (database) => {
      const hash = await hashPassword(BENCH_PASSWORD);
      await insertVerifiedRiders(database.db, benchRiderRows(ESCALATION_CALLS, 'escalate.rider', hash));
      const staff = await database.db
        .insert(users)
        .values(
          [0, 1].map((i) => ({
            email: `escalate.marshal${i}@bench.test`,
            passwordHash: hash,
            firstName: 'Marshal',
            lastName: String(i),
            role: 'marshall' as const,
            phoneNumber: `0917555000${i}`,
          })),
        )
        .returning({ id: users.id });
      await database.db.insert(notificationSettings).values(staff.map((s) => ({ userId: s.id, onCall: true })));
      return null;
    },
  });
  try {
    const tokens = await Promise.all(
      Array.from({ length: ESCALATION_CALLS }, (_, i) => benchLogin(server.url, `escalate.rider${i + 1}@bench.test`)),
    );
    const sentAt = new Map<string, number>();
    for (const token of tokens) {
      const id = randomUUID();
      sentAt.set(id, performance.now());
      const res = await fetch(`${server.url}/api/my/sos`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ id, kind: 'crash' }),
      });
      if (res.status !== 201) throw new Error(`sos answered ${res.status} ${await res.text()}`);
    }
    const firstText = (id: string) => phone.sent.find((t) => t.text.includes(`incident=${id}`));
    await until(
      () => [...sentAt.keys()].every((id) => firstText(id)),
      ESCALATE_AFTER_S * 1000 + 30_000,
      'every escalation text',
    );
    const waits = [...sentAt].map(([id, at]) => (firstText(id)?.at ?? Number.NaN) - at);
    return {
      database: kind,
      periodS: ESCALATE_AFTER_S,
      calls: ESCALATION_CALLS,
      texts: phone.sent.length,
      maxMs: Math.max(...waits),
    };
  } finally {
    await close();
    await phone.close();
  }
}

export interface MessagesReport {
  emails: EmailResult[];
  followers: FollowersResult[];
  sos: SosPushResult[];
  escalation: EscalationResult[];
}

export const MESSAGES_START = '<!-- messages:start -->';
export const MESSAGES_END = '<!-- messages:end -->';

export async function runMessages(kinds: readonly DbKind[], template: PgliteTemplate): Promise<MessagesReport> {
  const report: MessagesReport = { emails: [], followers: [], sos: [], escalation: [] };
  for (const kind of kinds) {
    report.emails.push(await runEmails(kind, template));
    report.followers.push(await runFollowers(kind, template));
    report.sos.push(await runSosPush(kind, template));
    report.escalation.push(await runEscalation(kind, template));
  }
  return report;
}

/** Written in place after a full run or BENCH_ONLY=messages. */
export function writeMessagesSection(report: MessagesReport, when: Date, commit: string, load?: [number, number]) {
  const section = [
    MESSAGES_START,
    '## 12. Messages: email, push to followers, SOS to on-call staff',
    '',
    '`apps/server/bench/messages.ts`: the real server with its real channels, pointed at local providers that speak',
    'the real protocols: an SMTP server (`smtp-server`), and a push service that checks the VAPID signature and',
    'decrypts every RFC 8291 payload as a browser would. Emails: queued in one transaction, delivered to the SMTP',
    'server; on PostgreSQL by two instances, one killed (SIGKILL) a third of the way, so the time includes the',
    'dead instance\'s 60 s lease; "twice" counts copies with the same Message-ID (sent by the dead instance, its',
    'answer lost with it). Followers: one scan through `POST /api/admin/scans`, to the last push delivered.',
    'SOS: riders press SOS at once; each on-call staff member has a subscribed browser; latency from the POST to each push.',
    'Escalation: SOS calls nobody acknowledges, texted to the on-call phones through a local server speaking SMS Gateway',
    "for Android's API after the period (SOS_ESCALATE_AFTER_S): from the POST to the first text, worst call.",
    '',
    `Measured ${when.toISOString().replace('T', ' ').slice(0, 16)} UTC, commit ${commit}${
      load ? `; load average (1 min) ${load[0].toFixed(1)} at start, ${load[1].toFixed(1)} at end` : ''
    }.`,
    '',
    markdownTable(messagesRows(report)),
    MESSAGES_END,
  ].join('\n');
  return writeSectionInPlace(MESSAGES_START, MESSAGES_END, section);
}

runAsScript(import.meta.url, async (template) => {
  const kinds: DbKind[] = ['pglite', ...((await pgReachable()) ? (['postgres'] as const) : [])];
  const started = new Date();
  const report = await runMessages(kinds, template);
  const rows = messagesRows(report);
  console.table(rows);
  console.log(`BENCH_RESULT ${JSON.stringify(report)}`);
  writeMessagesSection(report, started, 'working tree');
  if (rows.some((r) => r.met !== 'met')) process.exitCode = 1;
});
