// `npm start` / `npm run cli` of the server: runs the built JavaScript (dist/), building it
// first when its sources changed since the last build (a content hash; a few milliseconds
// when nothing changed). The server runs in this process: no second Node beside it.
//
//   node apps/server/scripts/run.mjs server
//   node apps/server/scripts/run.mjs cli <command> [--flag value ...]
import { existsSync, readFileSync } from 'node:fs';
import process from 'node:process';
import { pathToFileURL } from 'node:url';
import { isFresh } from '../../../scripts/freshness.mjs';

export async function runServerEntry(entry) {
  if (!isFresh('server')) {
    const { buildServer } = await import('./build.mjs');
    const ms = await buildServer();
    if (entry === 'server') console.log(`Built the server (apps/server/dist) in ${Math.round(ms)} ms`);
  }
  // Stack traces point into src/*.ts (the build writes source maps beside dist/). Node
  // keeps the map of every module loaded while maps are on, and many packages ship one:
  // the packages load first, with maps off (build.mjs lists them).
  const preload = new URL('../dist/preload.json', import.meta.url);
  if (existsSync(preload)) for (const name of JSON.parse(readFileSync(preload, 'utf8'))) await import(name);
  process.setSourceMapsEnabled(true);
  await import(new URL(`../dist/${entry}.js`, import.meta.url).href);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [entry, ...args] = process.argv.slice(2);
  if (entry !== 'server' && entry !== 'cli') {
    console.error('usage: node apps/server/scripts/run.mjs server|cli [args]');
    process.exit(2);
  }
  // cli.ts reads its command from process.argv.slice(2).
  process.argv = [process.argv[0] ?? 'node', process.argv[1] ?? '', ...args];
  await runServerEntry(entry);
}
