// The operator CLI, which talks to the running e2e server through DATA_DIR.
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import type { Role } from '@rally/shared/catalog';
import { DATA_DIR, PASSWORD, ROOT, uniqueEmail } from './env';

// `npm run cli` is two npm processes in front of this script (the root's, then the server
// workspace's): ~0.4 s of CPU per call, in a suite that makes a hundred.
const SCRIPT = join(ROOT, 'apps/server/scripts/run.mjs');

/** Runs one operator command against the e2e server's DATA_DIR; answers what it printed. */
export function cli(args: string[]): string {
  return execFileSync(process.execPath, [SCRIPT, 'cli', ...args], {
    cwd: ROOT,
    env: { ...process.env, DATA_DIR },
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

export interface CreatedUser {
  email: string;
  password: string;
  role: Role;
}

/** Creates an active, verified account of the given role. */
export function createUser(role: Role, email = uniqueEmail(role)): CreatedUser {
  cli([
    'create-user',
    '--email',
    email,
    '--password',
    PASSWORD,
    '--role',
    role,
    '--first-name',
    'Test',
    '--last-name',
    role,
  ]);
  return { email, password: PASSWORD, role };
}

/** A one-time reset link; the CLI prints it as its last line. */
export function resetLink(email: string): string {
  const lines = cli(['reset-link', '--email', email])
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const link = lines.at(-1) ?? '';
  if (!/^https?:\/\//.test(link)) throw new Error(`reset-link printed no link:\n${lines.join('\n')}`);
  return link;
}
