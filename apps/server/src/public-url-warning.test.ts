// The PUBLIC_URL warning reaches the log of a real server start (the operator reads
// the start-up lines, not the config object), and the CLI's own reset links say it too.
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { runNode, startServer } from './test/processes';

const WARNING = 'PUBLIC_URL is not set: password reset links will point at';

it('a production start without PUBLIC_URL logs a warning saying how to set it; with PUBLIC_URL it does not', async () => {
  // One data directory throughout, so the database is made once.
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'rally-public-url-'));
  const production = { DATA_DIR: dataDir, NODE_ENV: 'production', PUBLIC_URL: '' };

  const unset = await startServer(production);
  try {
    const line = unset
      .output()
      .split('\n')
      .find((l) => l.includes(WARNING));
    expect(line, unset.output()).toBeDefined();
    // A pino line at warn level (40), naming the variable to set.
    expect(JSON.parse(line as string)).toMatchObject({
      level: 40,
      msg: expect.stringContaining('PUBLIC_URL=https://'),
    });
  } finally {
    await unset.stop('SIGKILL');
  }

  // With no server running the CLI builds a reset link itself, on its own PUBLIC_URL.
  const made = await runNode(
    'cli',
    ['create-user', '--email', 'rider@example.com', '--password', 'Rider-Pass1', '--role', 'participant'],
    production,
  );
  expect(made.code, made.stderr).toBe(0);
  expect(made.stderr).not.toContain(WARNING);
  const link = await runNode('cli', ['reset-link', '--email', 'rider@example.com'], production);
  expect(link.code, link.stderr).toBe(0);
  expect(link.stdout).toContain('http://localhost:3000/reset-password?token=');
  expect(link.stderr).toContain(WARNING);

  const set = await startServer({ ...production, PUBLIC_URL: 'https://rally.example' });
  try {
    expect(set.output()).toContain('Rally platform on');
    expect(set.output()).not.toContain(WARNING);
  } finally {
    await set.stop('SIGKILL');
  }
}, 180_000);
