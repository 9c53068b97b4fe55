// Generated malformed requests for every route of the route table: wrong types,
// missing and extra fields, huge strings, unicode, negative and huge numbers, broken
// JSON and broken multipart, from anonymous visitors, a pending rider and staff.
// Never a 500, and a refused request never changes the database. Seeded: set
// FUZZ_SEED to replay a run; FUZZ_REQUESTS sets the total (default 10,000).
import { sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDefaultStations } from '../modules/stations/stations.service';
import { buildTestApp, type TestApp } from '../test/build-app';
import { type Actor, bearer, registerRider, staff } from '../test/factories';
import { firstRow } from '../test/present';

const SEED = Number(process.env.FUZZ_SEED ?? 20261122);
const TOTAL = Number(process.env.FUZZ_REQUESTS ?? 10_000);

// Tables whose rows a refused request must leave alone. Login attempts are recorded on
// purpose, good or bad, so login_activities is not among them.
const WATCHED = [
  'users',
  'sessions',
  'files',
  'entries',
  'verification_history',
  'fires',
  'comments',
  'announcements',
  'kit_tracking',
  'id_card_prints',
  'password_resets',
  'activities',
  'stations',
  'scans',
  'data_access',
  'erasure_requests',
  'privacy_notices',
  'consents',
  'data_exports',
];

interface OpenApiOperation {
  requestBody?: { content?: Record<string, { schema?: { properties?: Record<string, { type?: string }> } }> };
  parameters?: Array<{ in: string; name: string }>;
}

const hugeString = fc.integer({ min: 10_000, max: 300_000 }).map((n) => 'ż'.repeat(n));
const weirdString = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    '%',
    '_',
    "'; drop table users; --",
    '../../etc/passwd',
    '<script>alert(1)</script>',
    '🔥'.repeat(50),
    'null',
    'NaN',
    '-1',
    '1e309',
    '0x10',
    'CUSTOM',
  ),
  hugeString,
);
const weirdNumber = fc.oneof(
  fc.integer(),
  fc.double(),
  fc.constantFrom(-1, 0, 1, 1000, 1001, 2 ** 31, -(2 ** 63), Number.MAX_SAFE_INTEGER, 1e308),
);
const weirdValue: fc.Arbitrary<unknown> = fc.oneof(
  weirdString,
  weirdNumber,
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.oneof(weirdString, weirdNumber), { maxLength: 5 }),
  fc.dictionary(fc.string({ maxLength: 8 }), fc.oneof(weirdString, weirdNumber), { maxKeys: 4 }),
);

function bodyFor(fields: string[]): fc.Arbitrary<{ kind: 'json' | 'raw' | 'multipart'; payload: unknown }> {
  const known = fields.length > 0 ? fc.constantFrom(...fields) : fc.string({ maxLength: 10 });
  const objectBody = fc.dictionary(fc.oneof(known, known, fc.string({ maxLength: 12 })), weirdValue, { maxKeys: 12 });
  return fc.oneof(
    objectBody.map((payload) => ({ kind: 'json' as const, payload })),
    objectBody.map((payload) => ({ kind: 'json' as const, payload })),
    weirdValue.map((payload) => ({ kind: 'json' as const, payload })),
    fc
      .constantFrom('{', '{"a":', '[1,2', 'nul', '{"__proto__":{"x":1}}', '{"constructor":{"prototype":{}}}', '\u0000')
      .map((payload) => ({ kind: 'raw' as const, payload })),
    fc
      .tuple(objectBody, fc.constantFrom('ok', 'no-boundary', 'truncated', 'bad-header'))
      .map(([fieldsObj, shape]) => ({ kind: 'multipart' as const, payload: { fieldsObj, shape } })),
  );
}

function multipartPayload(fieldsObj: Record<string, unknown>, shape: string) {
  const boundary = '----fuzzboundary';
  let text = '';
  for (const [k, v] of Object.entries(fieldsObj)) {
    const value = typeof v === 'string' ? v : JSON.stringify(v);
    text += `--${boundary}\r\nContent-Disposition: form-data; name="${k.replace(/"/g, '')}"\r\n\r\n${value}\r\n`;
  }
  text += `--${boundary}\r\nContent-Disposition: form-data; name="profileImage"; filename="x.jpg"\r\nContent-Type: image/jpeg\r\n\r\n\xff\xd8\xff\xe0garbage\r\n`;
  if (shape !== 'truncated') text += `--${boundary}--\r\n`;
  const headers =
    shape === 'no-boundary'
      ? { 'content-type': 'multipart/form-data' }
      : shape === 'bad-header'
        ? { 'content-type': `multipart/form-data; boundary=${boundary}; charset=` }
        : { 'content-type': `multipart/form-data; boundary=${boundary}` };
  return { payload: Buffer.from(text, 'latin1'), headers };
}

async function watchChanges(t: TestApp) {
  const statements = [
    'create table fuzz_changes (n bigint not null)',
    'insert into fuzz_changes values (0)',
    `create function fuzz_bump() returns trigger language plpgsql as $$
       begin update fuzz_changes set n = n + 1; return null; end $$`,
    ...WATCHED.map(
      (table) =>
        `create trigger fuzz_watch after insert or delete on ${table} for each row execute function fuzz_bump()`,
    ),
    ...['users', 'entries'].map(
      (table) =>
        `create trigger fuzz_watch_update after update on ${table} for each row
         when (old.updated_at is distinct from new.updated_at) execute function fuzz_bump()`,
    ),
  ];
  for (const statement of statements) await t.database.db.execute(sql.raw(statement));
}

describe('generated malformed requests for every route', () => {
  let t: TestApp;
  let actors: Array<Actor | null>;
  let knownIds: string[];
  let operations: Record<string, Record<string, OpenApiOperation>>;

  beforeAll(async () => {
    // Garbage by design: its answers are held to the document, not its calls (the server
    // may read junk leniently, e.g. an empty `offset=` as 0, where the document says integer).
    t = await buildTestApp('pglite', {}, { requests: false });
    const rider = await registerRider(t.app);
    const other = await registerRider(t.app);
    const admin = await staff(t.app, t.database.db, 'admin');
    const developer = await staff(t.app, t.database.db, 'developer');
    const marshall = await staff(t.app, t.database.db, 'marshall');
    actors = [null, rider, admin, developer, marshall];
    // Real stations, so station routes meet ids that exist as well as ones that do not.
    const stationList = await seedDefaultStations(t.database.db, null);
    knownIds = [
      rider.userId,
      other.userId,
      admin.userId,
      '00000000-0000-0000-0000-000000000000',
      ...stationList.slice(0, 2).map((s) => s.id),
    ];
    operations = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json().paths;
    await watchChanges(t);
  });
  afterAll(() => t.close());

  /**
   * How many times the watched tables have changed: rows inserted or deleted in any of them,
   * and users or entries updated (their updated_at moved), counted by triggers this
   * test adds to its own database. One read of one row per request, where counting every
   * table each time cost a third of the test's time.
   */
  const snapshot = async () => {
    const rows = await t.database.db.execute(sql.raw('select n from fuzz_changes'));
    return String(firstRow((rows as unknown as { rows: Array<{ n: number | string }> }).rows).n);
  };

  it(`never answers 500 and never changes state when refusing (${TOTAL} requests, seed ${SEED})`, async () => {
    // The event stream takes no input and, once allowed, never ends: its refusals are
    // covered by the route × actor test and event-stream.test.ts.
    const routes = t.app.routeTable.filter(
      (r) => !r.url.startsWith('/api/docs') && r.url !== '/api/admin/event/stream',
    );
    expect(routes.length).toBeGreaterThan(10);
    const perRoute = Math.ceil(TOTAL / routes.length);
    let sent = 0;
    const failures: string[] = [];
    // The state before each request: read once, then again only after a request that was
    // let through (a refused one is checked to leave it as it was).
    let before = await snapshot();
    for (const route of routes) {
      const openApiPath = route.url.replace(/:([A-Za-z]+)/g, '{$1}');
      const op = operations[openApiPath]?.[route.method.toLowerCase()];
      const jsonSchema = op?.requestBody?.content?.['application/json']?.schema;
      const fields = Object.keys(jsonSchema?.properties ?? {});
      const params = [...route.url.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1]);
      const arb = fc.record({
        actor: fc.integer({ min: 0, max: actors.length - 1 }),
        params: fc.array(fc.oneof(fc.constantFrom(...knownIds), weirdString, weirdNumber.map(String)), {
          minLength: params.length,
          maxLength: params.length,
        }),
        query: fc.dictionary(
          fc.constantFrom(
            'page',
            'limit',
            'offset',
            'search',
            'sort_by',
            'sort_order',
            'filter_status',
            'logType',
            'dateRange',
            'role',
            'category',
            'isPrinted',
            'email',
            'status',
            'since',
            'state',
            'x',
          ),
          fc.oneof(weirdString, weirdNumber.map(String)),
          { maxKeys: 4 },
        ),
        body: bodyFor(fields),
      });
      const samples = fc.sample(arb, { numRuns: perRoute, seed: SEED + sent });
      for (const s of samples) {
        let url = route.url;
        params.forEach((p, i) => {
          url = url.replace(`:${p}`, encodeURIComponent(String(s.params[i]).slice(0, 400)) || 'x');
        });
        const qs = new URLSearchParams(
          Object.entries(s.query).map(([k, v]) => [k, String(v).slice(0, 2000)]),
        ).toString();
        if (qs) url += `?${qs}`;
        const actor = actors[s.actor];
        const headers: Record<string, string> = actor ? bearer(actor.token) : {};
        let payload: string | Buffer | undefined;
        if (route.method !== 'GET' && route.method !== 'DELETE') {
          if (s.body.kind === 'json') {
            headers['content-type'] = 'application/json';
            payload = JSON.stringify(s.body.payload ?? null);
          } else if (s.body.kind === 'raw') {
            headers['content-type'] = 'application/json';
            payload = String(s.body.payload);
          } else {
            const { fieldsObj, shape } = s.body.payload as { fieldsObj: Record<string, unknown>; shape: string };
            const mp = multipartPayload(fieldsObj, shape);
            Object.assign(headers, mp.headers);
            payload = mp.payload;
          }
        }
        const res = await t.app.inject({ method: route.method as 'GET', url, headers, payload });
        sent++;
        const describeReq = `${route.method} ${url.slice(0, 100)} as ${actor?.role ?? 'anonymous'}`;
        const after = await snapshot();
        if (res.statusCode >= 500) failures.push(`${res.statusCode} ${describeReq}: ${res.body.slice(0, 200)}`);
        else if (res.statusCode >= 400) {
          const body = res.json();
          if (body.success !== false || typeof body.message !== 'string' || body.message.length === 0) {
            failures.push(`no error envelope for ${describeReq}: ${res.body.slice(0, 120)}`);
          }
          if (after !== before) failures.push(`state changed by refused ${describeReq} (${res.statusCode})`);
        }
        before = after;
        if (failures.length >= 20) break;
      }
      if (failures.length >= 20) break;
    }
    expect(failures).toEqual([]);
    expect(sent).toBeGreaterThanOrEqual(TOTAL);
  }, 600_000);

  // Issue 16: a NUL in a text field reached PostgreSQL and answered 500. Every known
  // body field of every route, and every path parameter, gets one: always a 4xx (a 400
  // naming the field once the caller may use the route), and nothing changes.
  it('refuses a NUL byte in every field of every route with a 4xx naming the field', async () => {
    const routes = t.app.routeTable.filter((r) => !r.url.startsWith('/api/docs'));
    const failures: string[] = [];
    const admin = actors[2] as Actor;
    for (const route of routes) {
      const openApiPath = route.url.replace(/:([A-Za-z]+)/g, '{$1}');
      const op = operations[openApiPath]?.[route.method.toLowerCase()];
      const props = op?.requestBody?.content?.['application/json']?.schema?.properties ?? {};
      const params = [...route.url.matchAll(/:([A-Za-z]+)/g)].map((m) => m[1] ?? '');
      const targets: Array<{ field: string; url: string; payload?: Record<string, unknown> }> = [];
      const base = route.url.replace(/:([A-Za-z]+)/g, () => encodeURIComponent(knownIds[0] ?? 'x'));
      for (const field of Object.keys(props)) {
        if (route.method === 'GET' || route.method === 'DELETE') continue;
        targets.push({ field, url: base, payload: { [field]: 'warrior\u0000' } });
      }
      for (const param of params) {
        targets.push({ field: param, url: route.url.replace(`:${param}`, 'warrior%00').replace(/:([A-Za-z]+)/g, 'x') });
      }
      if (route.method === 'GET') targets.push({ field: 'search', url: `${base}?search=warrior%00` });
      for (const target of targets) {
        for (const actor of [null, admin]) {
          const before = await snapshot();
          const res = await t.app.inject({
            method: route.method as 'GET',
            url: target.url,
            headers: actor ? bearer(actor.token) : {},
            ...(target.payload ? { payload: target.payload } : {}),
          });
          const what = `${route.method} ${target.url} (${target.field}) as ${actor?.role ?? 'anonymous'}`;
          if (res.statusCode < 400 || res.statusCode >= 500) failures.push(`${res.statusCode} for ${what}`);
          else if (res.statusCode === 400 && res.json().code === 'CONTROL_CHARACTERS') {
            if (!res.json().message.startsWith(target.field))
              failures.push(`message ${res.json().message} for ${what}`);
          }
          if ((await snapshot()) !== before) failures.push(`state changed by ${what}`);
        }
      }
    }
    expect(failures).toEqual([]);
  }, 240_000);
});
