// The operator CLI, which talks to the running e2e server through DATA_DIR.
import { execFileSync } from 'node:child_process';
import type { Role } from '@rally/shared/catalog';
import { DATA_DIR, PASSWORD, ROOT, uniqueEmail } from './env';

function cli(args: string[]): string {
  return execFileSync('npm', ['run', '--silent', 'cli', '--', ...args], {
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
