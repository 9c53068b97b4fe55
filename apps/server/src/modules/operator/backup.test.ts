// Issue 16: backups. A populated instance is backed up, wiped and restored, and every
// table and every file's hash compared — on both databases; then the real CLI backs up
// a running embedded server through its control channel and restores into another.
import { mkdtempSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, DB_KINDS, type TestApp } from '../../test/build-app';
import { approvedRider, bearer, login, registerRider, STRONG_PASSWORD, staff } from '../../test/factories';
import { freshDataDir, type RunningServer, runNode, startServer } from '../../test/processes';
import { waitForFiles } from '../../test/wait-for-files';
import { tablesInOrder } from './backup';
import { runOperatorCommand } from './operator.service';

describe.each(DB_KINDS)('backup and restore on %s', (kind) => {
  let t: TestApp;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'rally-backup-'));
  beforeAll(async () => {
    t = await buildTestApp(kind);
  });
  afterAll(() => t.close());

  const run = (command: string, args: Record<string, string>) =>
    runOperatorCommand(t.database.db, t.config.publicUrl, command, args);
  const query = async <T>(q: ReturnType<typeof sql>) =>
    ((await t.database.db.execute(q)) as unknown as { rows: T[] }).rows;

  /** Every table's rows (as sorted JSON) and every file's stored and recomputed hash. */
  const state = async () => {
    const tables: Record<string, string[]> = {};
    for (const table of await tablesInOrder(t.database.db)) {
      const rows = await query<{ j: string }>(
        sql`select row_to_json(x)::text as j from ${sql.identifier(table)} x order by 1`,
      );
      tables[table] = rows.map((r) => r.j);
    }
    const files = await query<{ id: string; sha256: string; actual: string; size: number }>(
      sql`select id, sha256, encode(sha256(data), 'hex') as actual, length(data) as size from files order by id`,
    );
    return { tables, files };
  };

  const wipe = async () => {
    for (const table of (await tablesInOrder(t.database.db)).reverse()) {
      await t.database.db.execute(sql`delete from ${sql.identifier(table)}`);
    }
    // As a new database: its sequences start again.
    await t.database.db.execute(sql`select setval(pg_get_serial_sequence('privacy_notices', 'version'), 1, false)`);
  };

  it('backs up a populated instance, refuses a non-empty target, and restores it identically after a wipe', async () => {
    const admin = await staff(t.app, t.database.db, 'admin');
    const a = await approvedRider(t.app, admin);
    const b = await approvedRider(t.app, admin);
    await registerRider(t.app);
    const comment = await t.app.inject({
      method: 'POST',
      url: `/api/users/${b.userId}/comments`,
      headers: bearer(a.token),
      payload: { comment: 'Ride safe,\nwarrior! 🔥' },
    });
    expect(comment.statusCode).toBe(201);
    await t.app.inject({ method: 'POST', url: `/api/users/${b.userId}/fire`, headers: bearer(a.token) });
    await t.app.inject({
      method: 'POST',
      url: '/api/admin/announcements',
      headers: bearer(admin.token),
      payload: { title: 'Briefing', content: 'Line one\nLine two' },
    });
    await login(t.app, a.email, 'Wrong-pass-1');
    // The file queue has finished with every upload (receipts read too): nothing moves under the snapshot.
    await waitForFiles(t.app, { reads: true });

    const before = await state();
    expect(before.files.length).toBeGreaterThanOrEqual(6);
    for (const f of before.files) expect(f.actual).toBe(f.sha256);
    expect(before.tables.comments).toHaveLength(1);

    const file = path.join(dir, `${kind}.rally-backup.gz`);
    const made = await run('backup', { file });
    expect(made.exitCode, made.output).toBe(0);
    expect(made.output).toMatch(/^Backed up \d+ tables \(.*users \d+.*\), \d+ uploaded files included, to /);
    expect(statSync(file).size).toBeGreaterThan(1000);

    const refused = await run('restore', { file });
    expect(refused.exitCode).toBe(1);
    expect(refused.output).toMatch(/^This database is not empty \(.*users \d+.*\)\. Nothing was changed\./);
    expect(await state()).toEqual(before);

    await wipe();
    expect((await state()).files).toEqual([]);
    const restored = await run('restore', { file });
    expect(restored.exitCode, restored.output).toBe(0);
    expect(restored.output).toMatch(/^Restored .* uploaded files\.$/);
    expect(await state()).toEqual(before);
    // The restored accounts work.
    expect((await login(t.app, a.email, STRONG_PASSWORD)).statusCode).toBe(200);
    // A serial column carries on past the restored rows: the next privacy notice is the next version.
    const published = await t.app.inject({
      method: 'PUT',
      url: '/api/admin/privacy/notice',
      headers: bearer(admin.token),
      payload: { privacyText: 'Restored notice, version after the backup.', termsText: 'Restored terms, the same.' },
    });
    expect(published.statusCode, published.body).toBe(200);
    expect(published.json().data.version).toBe(
      Math.max(...(before.tables.privacy_notices ?? []).map((j) => JSON.parse(j).version)) + 1,
    );

    // --force replaces whatever the database holds by the backup.
    await registerRider(t.app);
    const forced = await run('restore', { file, force: 'true' });
    expect(forced.exitCode, forced.output).toBe(0);
    expect(forced.output).toMatch(/It replaced what the database held \(/);
    const after = await state();
    expect(after.files).toEqual(before.files);
    expect(after.tables.users).toEqual(before.tables.users);
  });

  it('refuses a file that is not a complete backup, changing nothing', async () => {
    const bad = await run('restore', { file: path.join(dir, 'missing.gz') });
    expect(bad).toMatchObject({ exitCode: 1 });
    expect(bad.output).toMatch(/^No backup file at /);
  });
});

describe('backup while the embedded server runs, through the CLI', () => {
  const first = freshDataDir('rally-backup-a-');
  const second = freshDataDir('rally-backup-b-');
  const file = path.join(first, 'rally.backup.gz');
  let server: RunningServer | undefined;
  afterAll(async () => {
    await server?.stop('SIGKILL');
  });

  it('backs up a running server over its control channel and restores into another', async () => {
    server = await startServer({ DATA_DIR: first });
    const made = await runNode(
      'cli',
      ['create-user', '--email', 'chief@example.com', '--password', 'Chief-Pass1', '--role', 'admin'],
      { DATA_DIR: first },
    );
    expect(made.code, made.stderr).toBe(0);
    const backup = await runNode('cli', ['backup', file], { DATA_DIR: first });
    expect(backup.code, backup.stderr).toBe(0);
    expect(backup.stdout).toMatch(/Backed up .*users 1.*to /);
    await server.stop();

    server = await startServer({ DATA_DIR: second });
    const restore = await runNode('cli', ['restore', file], { DATA_DIR: second });
    expect(restore.code, restore.stderr).toBe(0);
    expect(restore.stdout).toMatch(/^Restored .*users 1/);
    const res = await fetch(`${server.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'chief@example.com', password: 'Chief-Pass1' }),
    });
    expect(res.status).toBe(200);
    const again = await runNode('cli', ['restore', file], { DATA_DIR: second });
    expect(again.code).toBe(1);
    expect(again.stderr).toMatch(/This database is not empty/);
  }, 300_000);
});
