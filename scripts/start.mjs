// `npm start`: the web client is built only when its sources changed since the last build
// (scripts/freshness.mjs), the server likewise, and the server then runs in this process.
// On an unchanged checkout that is a few milliseconds of hashing before the server starts.
import { spawnSync } from 'node:child_process';
import { isFresh, repoRoot } from './freshness.mjs';

if (!isFresh('web')) {
  console.log('The web client changed since its last build (or was never built): building it…');
  // npm is npm.cmd on Windows, which only a shell finds.
  const res = spawnSync('npm', ['run', 'build', '-w', '@rally/web'], {
    cwd: repoRoot,
    stdio: 'inherit',
    shell: process.platform === 'win32',
  });
  if (res.status !== 0) process.exit(res.status ?? 1);
}
const { runServerEntry } = await import('../apps/server/scripts/run.mjs');
await runServerEntry('server');
