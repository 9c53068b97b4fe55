import { expect, it } from 'vitest';
import { freshDataDir, runNode, startServer } from './test/processes';

const WARNING = 'PUBLIC_URL is not set: password reset links will point at';

it('a production start without PUBLIC_URL logs a warning saying how to set it; with PUBLIC_URL it does not', async () => {
  // One data directory throughout, so the database is made once.
  const dataDir = freshDataDir('rally-public-url-');
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
