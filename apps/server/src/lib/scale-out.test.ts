// Two real server processes on one PostgreSQL database and one S3-compatible object store
// (s3rver, started by this test, spoken to through the same AWS SDK calls as production)
// behave as one server: what one instance writes, the other serves; a session made on
// one works on the other; limits are counted across both; cached answers follow writes
// made through either. docs/deploy.md, "What the instances share", rests on this test.
import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { eq, sql } from 'drizzle-orm';
import S3rver from 's3rver';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { files } from '../db/schema/files';
import { createUser } from '../modules/operator/operator.service';
import { openTestDatabase } from '../test/build-app';
import { jpeg, multipart, registrationFields, registrationFiles, STRONG_PASSWORD } from '../test/factories';
import { type RunningServer, runNode, startServer } from '../test/processes';
import { openSse, waitLive } from '../test/sse-client';
import { waitForFilesIn } from '../test/wait-for-files';

const BUCKET = 'rally-files';
const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

describe.skipIf(!process.env.TEST_DATABASE_URL)('two server instances, one database, one object store', () => {
  let s3: S3rver;
  let s3Dir: string;
  let dataDir: string;
  let opened: Awaited<ReturnType<typeof openTestDatabase>>;
  let a: RunningServer;
  let b: RunningServer;
  let bucket: S3Client;
  let env: Record<string, string>;

  beforeAll(async () => {
    s3Dir = mkdtempSync(path.join(os.tmpdir(), 'rally-s3-'));
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'rally-scale-'));
    s3 = new S3rver({
      address: '127.0.0.1',
      port: 0,
      silent: true,
      directory: s3Dir,
      configureBuckets: [{ name: BUCKET }],
    });
    const { port } = await s3.run();
    const endpoint = `http://127.0.0.1:${port}`;
    opened = await openTestDatabase('postgres');
    env = {
      DATABASE_URL: opened.url as string,
      DATA_DIR: dataDir,
      S3_BUCKET: BUCKET,
      S3_ENDPOINT: endpoint,
      S3_REGION: 'us-east-1',
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: 'true',
      RATE_LIMIT_RESETS: '4',
      RATE_LIMIT_LOGIN_PER_ACCOUNT: '3',
      PUBLIC_URL: 'http://rally.test',
      WEB_DIST: '/nonexistent',
    };
    [a, b] = await Promise.all([startServer(env), startServer(env)]);
    bucket = new S3Client({
      region: 'us-east-1',
      endpoint,
      forcePathStyle: true,
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }, 180_000);

  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    bucket?.destroy();
    await opened?.drop();
    await s3?.close();
    rmSync(s3Dir, { recursive: true, force: true });
    rmSync(dataDir, { recursive: true, force: true });
  });

  const objectKeys = async () =>
    ((await bucket.send(new ListObjectsV2Command({ Bucket: BUCKET }))).Contents ?? []).map((o) => o.Key).sort();

  const rowsOf = (userId: string) =>
    opened.database.db
      .select({
        kind: files.kind,
        storageKey: files.storageKey,
        inRow: sql<boolean>`${files.data} is not null`,
        sha256: files.sha256,
      })
      .from(files)
      .where(eq(files.userId, userId))
      .orderBy(files.kind);

  async function registerOn(server: RunningServer, overrides: Record<string, string> = {}) {
    const fields = registrationFields(overrides);
    const body = multipart(fields, await registrationFiles());
    const res = await fetch(`${server.url}/api/auth/register-with-uploads`, {
      method: 'POST',
      headers: body.headers,
      body: body.payload,
    });
    expect(res.status).toBe(201);
    // Its images are processed by a file queue worker (A's or B's) before anyone is served them.
    await waitForFilesIn(opened.database.db);
    const json = (await res.json()) as { token: string; data: { user: { id: string; riderNumber: number } } };
    return { token: json.token, userId: json.data.user.id, email: fields.email as string, ...json.data.user };
  }

  const auth = (token: string) => ({ authorization: `Bearer ${token}` });

  it('stores files registered on A in the bucket; B serves them, streamed, and honours the session made on A', async () => {
    const rider = await registerOn(a, { riderNumber: '11' });
    const rows = await rowsOf(rider.userId);
    expect(rows.map((r) => [r.kind, r.inRow])).toEqual([
      ['profile_image', false],
      ['payment_receipt', false],
    ]);
    const keys = await objectKeys();
    for (const row of rows) expect(keys).toContain(row.storageKey);

    // The session made on A is a session on B.
    const profile = await fetch(`${b.url}/api/auth/profile`, { headers: auth(rider.token) });
    expect(profile.status).toBe(200);

    // B reads the bytes A put in the store: the same SHA-256 as recorded at upload.
    const photoRow = rows.find((r) => r.kind === 'profile_image');
    const photo = await fetch(`${b.url}/api/public/profile-image/${rider.userId}`);
    expect(photo.status).toBe(200);
    expect(photo.headers.get('content-type')).toBe('image/jpeg');
    const photoBytes = Buffer.from(await photo.arrayBuffer());
    expect(sha256(photoBytes)).toBe(photoRow?.sha256);
    expect(Number(photo.headers.get('content-length'))).toBe(photoBytes.length);
    // A revalidation is answered from the row alone.
    const again = await fetch(`${b.url}/api/public/profile-image/${rider.userId}`, {
      headers: { 'if-none-match': photo.headers.get('etag') ?? '' },
    });
    expect(again.status).toBe(304);
    const thumb = await fetch(`${b.url}/api/public/profile-image/${rider.userId}?size=thumb`);
    expect(thumb.status).toBe(200);
    expect(thumb.headers.get('content-type')).toBe('image/jpeg');

    const receipt = await fetch(`${b.url}/api/upload/payment-receipt/${rider.userId}`, { headers: auth(rider.token) });
    expect(receipt.status).toBe(200);
    expect(sha256(Buffer.from(await receipt.arrayBuffer()))).toBe(
      rows.find((r) => r.kind === 'payment_receipt')?.sha256,
    );
  });

  it('replaces a photo through B: A serves the new one and the old object leaves the bucket', async () => {
    const rider = await registerOn(a, { riderNumber: '12' });
    const [oldPhoto] = (await rowsOf(rider.userId)).filter((r) => r.kind === 'profile_image');
    const body = multipart({}, [
      { field: 'profileImage', filename: 'new.jpg', contentType: 'image/jpeg', data: await jpeg({ width: 90 }) },
    ]);
    const res = await fetch(`${b.url}/api/upload/profile-image`, {
      method: 'POST',
      headers: { ...body.headers, ...auth(rider.token) },
      body: body.payload,
    });
    expect(res.status).toBe(201);
    await waitForFilesIn(opened.database.db);
    const [newPhoto] = (await rowsOf(rider.userId)).filter((r) => r.kind === 'profile_image');
    expect(newPhoto?.storageKey).not.toBe(oldPhoto?.storageKey);
    const keys = await objectKeys();
    expect(keys).toContain(newPhoto?.storageKey);
    expect(keys).not.toContain(oldPhoto?.storageKey);
    const served = await fetch(`${a.url}/api/upload/profile-image/${rider.userId}`, { headers: auth(rider.token) });
    expect(sha256(Buffer.from(await served.arrayBuffer()))).toBe(newPhoto?.sha256);
  });

  it('deleting an account on B removes its objects from the bucket', async () => {
    const rider = await registerOn(a, { riderNumber: '13' });
    const mine = (await rowsOf(rider.userId)).map((r) => r.storageKey);
    const email = `admin.scale.${Date.now()}@example.com`;
    await createUser(opened.database.db, { email, password: STRONG_PASSWORD, role: 'admin' });
    const login = await fetch(`${a.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: STRONG_PASSWORD }),
    });
    const { token } = (await login.json()) as { token: string };
    const res = await fetch(`${b.url}/api/admin/users/${rider.userId}`, { method: 'DELETE', headers: auth(token) });
    expect(res.status).toBe(200);
    const keys = await objectKeys();
    for (const key of mine) expect(keys).not.toContain(key);
  });

  it('leaves no object behind for the losers of a rider-number race spread over both instances', async () => {
    const parts = await registrationFiles();
    const statuses = await Promise.all(
      [a, b, a, b, a, b].map(async (server) => {
        const body = multipart(registrationFields({ riderNumber: '21' }), parts);
        const res = await fetch(`${server.url}/api/auth/register-with-uploads`, {
          method: 'POST',
          headers: body.headers,
          body: body.payload,
        });
        return res.status;
      }),
    );
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(5);
    // Every object in the bucket is named by a row, and every row's object is there, once the
    // winner's originals are processed: the processed object is put before its row changes and
    // the original removed just after the commit.
    await waitForFilesIn(opened.database.db);
    const consistent = async () => {
      const named = await opened.database.db
        .select({ storageKey: files.storageKey })
        .from(files)
        .where(sql`${files.storageKey} is not null`);
      const keys = await objectKeys();
      const rows = named.map((r) => r.storageKey).sort();
      return JSON.stringify(keys) === JSON.stringify(rows) ? 'consistent' : { keys, rows };
    };
    await expect.poll(consistent, { timeout: 10_000 }).toBe('consistent');
  });

  it('raises an SOS sent to A on a staff board connected to B (the event stream over LISTEN/NOTIFY)', async () => {
    const rider = await registerOn(a, { riderNumber: '17' });
    const email = `marshal.scale.${Date.now()}@example.com`;
    await createUser(opened.database.db, { email, password: STRONG_PASSWORD, role: 'marshall' });
    const login = await fetch(`${a.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email, password: STRONG_PASSWORD }),
    });
    const { token } = (await login.json()) as { token: string };
    const board = await openSse(`${b.url}/api/admin/event/stream`, token);
    try {
      await waitLive(board);
      const id = crypto.randomUUID();
      const sent = await fetch(`${a.url}/api/my/sos`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...auth(rider.token) },
        body: JSON.stringify({
          id,
          kind: 'crash',
          position: { lat: 7.1, lng: 125.6, accuracy: 20, at: new Date().toISOString() },
        }),
      });
      expect(sent.status).toBe(201);
      const event = await board.waitFor((e) => e.event === 'incident' && JSON.parse(e.data).incidentId === id);
      expect(JSON.parse(event.data)).toMatchObject({ status: 'open', riderId: rider.userId });
    } finally {
      board.close();
    }
  });

  it('counts a route rate limit across both instances', async () => {
    // RATE_LIMIT_RESETS=4 per address: four calls spread over A and B pass, the fifth is refused.
    const statuses: number[] = [];
    for (const server of [a, b, a, b, a, b]) {
      const res = await fetch(`${server.url}/api/auth/forgot-password`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'nobody@example.com' }),
      });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([200, 200, 200, 200, 429, 429]);
  });

  it('throttles failed logins of one account across both instances', async () => {
    const rider = await registerOn(b, { riderNumber: '14' });
    const statuses: number[] = [];
    for (const server of [a, b, a, b, a]) {
      const res = await fetch(`${server.url}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: rider.email, password: 'Wrong-password-1' }),
      });
      statuses.push(res.status);
    }
    // RATE_LIMIT_LOGIN_PER_ACCOUNT=3: three judged failures, then the account is closed to this address.
    expect(statuses).toEqual([401, 401, 401, 429, 429]);
  });

  it("drops B's cached answers when A writes (LISTEN/NOTIFY), long before they would expire", async () => {
    // Both instances listen, so their answers live 60 s unless a change is announced: B
    // answering anew within 2 s is the announcement. (Counting LISTEN backends in
    // pg_stat_activity was racy: its `query` is the last statement, and the connections'
    // liveness ping replaces it every 10 s.)
    const taken = async () =>
      ((await (await fetch(`${b.url}/api/rider-numbers/taken`)).json()) as { data: { takenNumbers: number[] } }).data
        .takenNumbers;
    expect(await taken()).not.toContain(15);
    await registerOn(a, { riderNumber: '15' });
    const deadline = Date.now() + 2000;
    let seen = await taken();
    while (!seen.includes(15) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 50));
      seen = await taken();
    }
    expect(seen).toContain(15);
  });

  it('backs up with the files of the bucket inside, and restores them into a database with no store', async () => {
    const rider = await registerOn(a, { riderNumber: '16' });
    const file = path.join(dataDir, 'rally.backup.gz');
    const backup = await runNode('cli', ['backup', file], env);
    expect(backup.code, backup.stderr).toBe(0);
    const target = await openTestDatabase('postgres');
    try {
      const restore = await runNode('cli', ['restore', file], {
        DATABASE_URL: target.url as string,
        DATA_DIR: dataDir,
      });
      expect(restore.code, restore.stderr).toBe(0);
      const restored = await target.database.db.execute(
        sql`select count(*)::int as n, count(*) filter (where storage_key is null and encode(sha256(data), 'hex') = sha256)::int as whole,
                   count(*) filter (where user_id = ${rider.userId})::int as mine
              from files`,
      );
      const counts = (restored as unknown as { rows: { n: number; whole: number; mine: number }[] }).rows[0];
      expect(counts?.mine).toBe(2);
      expect(counts?.whole).toBe(counts?.n);
    } finally {
      await target.drop();
    }
  }, 240_000);
});
