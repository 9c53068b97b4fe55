import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freshDataDir, type RunningServer, runNode, startServer } from '../../test/processes';

async function post(url: string, body: unknown, token?: string) {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return { status: res.status, json: (await res.json()) as { data: { user: Record<string, unknown> } } };
}

describe('the run contract: server process, data directory and operator CLI', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'rally-run-'));
  const env = { DATA_DIR: dataDir, PUBLIC_URL: 'http://rally.example' };
  let server: RunningServer | undefined;
  afterAll(async () => {
    await server?.stop('SIGKILL');
  });

  it('prints the first-start hint, and the CLI creates an admin through the running server', async () => {
    server = await startServer(env);
    expect(server.output()).toContain('npm run cli -- create-user');

    const made = await runNode(
      'cli',
      [
        'create-user',
        '--email',
        'Chief@Example.com',
        '--password',
        'Chief-Pass1',
        '--role',
        'admin',
        '--first-name',
        'Rajah',
        '--last-name',
        'Sulayman',
      ],
      env,
    );
    expect(made.code).toBe(0);
    expect(made.stdout).toContain('Created admin account chief@example.com');

    const login = await post(`${server.url}/api/auth/login`, { email: 'chief@example.com', password: 'Chief-Pass1' });
    expect(login.status).toBe(200);
    expect(login.json.data.user).toMatchObject({ role: 'admin', verificationStatus: 'verified', firstName: 'Rajah' });
  });

  it('refuses a weak password, a taken email and an unknown role with exit code 1', async () => {
    const weak = await runNode(
      'cli',
      ['create-user', '--email', 'w@example.com', '--password', 'weak', '--role', 'admin'],
      env,
    );
    expect(weak.code).toBe(1);
    expect(weak.stderr).toContain('Weak password: Password must be at least 8 characters long');
    const taken = await runNode(
      'cli',
      ['create-user', '--email', 'chief@example.com', '--password', 'Chief-Pass1', '--role', 'admin'],
      env,
    );
    expect(taken.code).toBe(1);
    expect(taken.stderr).toContain('already exists');
    const role = await runNode(
      'cli',
      ['create-user', '--email', 'r@example.com', '--password', 'Chief-Pass1', '--role', 'king'],
      env,
    );
    expect(role.code).toBe(1);
    expect(role.stderr).toContain('Unknown role "king"');
  });

  it('prints a working one-time reset link', async () => {
    const out = await runNode('cli', ['reset-link', '--email', 'chief@example.com'], env);
    expect(out.code).toBe(0);
    const link = out.stdout.trim().split('\n').pop() as string;
    expect(link).toMatch(/^http:\/\/rally\.example\/reset-password\?token=[A-Za-z0-9_-]{43}$/);
    const token = new URL(link).searchParams.get('token');
    const check = await fetch(`${server?.url}/api/auth/reset-password/${token}`);
    expect(check.status).toBe(200);
  });

  it('refuses a second server on the same DATA_DIR with a clear message', async () => {
    const second = await runNode('server', [], { ...env, PORT: '0' });
    expect(second.code).toBe(1);
    expect(second.stderr).toContain(`DATA_DIR ${dataDir} is in use by another server`);
  });

  it('shuts down cleanly on SIGTERM; the CLI then opens the store itself, and a restart keeps everything', async () => {
    expect(await server?.stop('SIGTERM')).toBe(0);
    const seeded = await runNode('cli', ['seed-demo'], env);
    expect(seeded.code).toBe(0);
    expect(seeded.stdout).toContain('Seeded 32 demo riders');
    const password = /Password for every demo account: (\S+)/.exec(seeded.stdout)?.[1] as string;

    server = await startServer(env);
    expect(server.output()).not.toContain('No admin or developer account exists yet');
    const admin = await post(`${server.url}/api/auth/login`, { email: 'chief@example.com', password: 'Chief-Pass1' });
    expect(admin.status).toBe(200);
    const demo = await post(`${server.url}/api/auth/login`, { email: 'marshall@demo.rally.ph', password });
    expect(demo.status).toBe(200);
    const taken = await (await fetch(`${server.url}/api/rider-numbers/taken`)).json();
    expect(taken.data.takenNumbers.length).toBe(32);

    const again = await runNode('cli', ['seed-demo'], env);
    expect(again.stdout).toContain('Nothing was changed');
  });

  it('explains its commands', async () => {
    const help = await runNode('cli', ['nonsense'], env);
    expect(help.code).toBe(1);
    expect(help.stderr).toContain('Unknown command "nonsense"');
  });

  it('migrates a new store and exits, and answers the same through a running server', async () => {
    const empty = { ...env, DATA_DIR: mkdtempSync(path.join(os.tmpdir(), 'rally-migrate-')) };
    const made = await runNode('cli', ['migrate'], empty);
    expect(made.code, made.stderr).toBe(0);
    expect(made.stdout).toContain('The database is migrated and ready.');
    const started = await startServer(empty);
    try {
      expect(started.output()).toContain('npm run cli -- create-user');
      const again = await runNode('cli', ['migrate'], empty);
      expect(again.code, again.stderr).toBe(0);
      expect(again.stdout).toContain('The database is migrated and ready.');
    } finally {
      await started.stop('SIGKILL');
    }
  });
});

describe('operator commands and the public answer cache', () => {
  const dataDir = freshDataDir('rally-run-cache-');
  const env = { DATA_DIR: dataDir, PUBLIC_URL: 'http://rally.example' };
  let server: RunningServer | undefined;
  afterAll(async () => {
    await server?.stop('SIGKILL');
  });

  it('shows riders seeded through the running server at once, though the list was just answered from the cache', async () => {
    server = await startServer(env);
    const taken = async () =>
      ((await (await fetch(`${server?.url}/api/rider-numbers/taken`)).json()) as { data: { takenNumbers: number[] } })
        .data.takenNumbers;
    expect(await taken()).toEqual([]);
    expect(await taken()).toEqual([]);
    const seeded = await runNode('cli', ['seed-demo'], env);
    expect(seeded.stdout).toContain('Seeded 32 demo riders');
    expect((await taken()).length).toBe(32);
  });
});
