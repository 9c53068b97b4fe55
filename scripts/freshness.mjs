// Whether a build is current: a SHA-256 over the contents of the files it is built from,
// kept beside the build as `.sources-hash`. Contents, not modification times, so switching
// branches and back, or a fresh clone (every mtime new), rebuilds exactly when the sources
// differ from what was built. Hashing every input of a build takes a few milliseconds.
//
//   node scripts/freshness.mjs stamp web|server     record the current sources as built
//   node scripts/freshness.mjs check web|server     exit 0 when the build is current, 1 when not
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const repoRoot = fileURLToPath(new URL('../', import.meta.url));

/** What each build is made from (relative to the repository), and where it is written. */
export const BUILDS = {
  web: {
    out: 'apps/web/dist',
    inputs: [
      'apps/web/src',
      'apps/web/public',
      'apps/web/scripts',
      'apps/web/index.html',
      'apps/web/vite.config.ts',
      'apps/web/tsconfig.json',
      'apps/web/package.json',
      'packages/shared/src',
      'packages/shared/package.json',
      'package-lock.json',
    ],
  },
  server: {
    out: 'apps/server/dist',
    inputs: [
      'apps/server/src',
      'apps/server/scripts/build.mjs',
      'apps/server/package.json',
      'packages/shared/src',
      'packages/shared/package.json',
      'package-lock.json',
    ],
  },
};

const STAMP = '.sources-hash';

function collect(abs, rel, files) {
  if (!existsSync(abs)) return;
  if (statSync(abs).isDirectory()) {
    for (const name of readdirSync(abs).sort()) {
      if (name === 'node_modules' || name === 'dist') continue;
      collect(path.join(abs, name), `${rel}/${name}`, files);
    }
  } else files.push([rel, abs]);
}

export function sourcesHash(name) {
  const files = [];
  for (const input of BUILDS[name].inputs) collect(path.join(repoRoot, input), input, files);
  const hash = createHash('sha256');
  for (const [rel, abs] of files) {
    hash.update(`${rel}\0`);
    hash.update(readFileSync(abs));
    hash.update('\0');
  }
  return hash.digest('hex');
}

const stampFile = (name) => path.join(repoRoot, BUILDS[name].out, STAMP);

export function isFresh(name) {
  const file = stampFile(name);
  return existsSync(file) && readFileSync(file, 'utf8').trim() === sourcesHash(name);
}

export function stamp(name) {
  writeFileSync(stampFile(name), `${sourcesHash(name)}\n`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const [command, name] = process.argv.slice(2);
  if (!Object.hasOwn(BUILDS, name ?? '') || (command !== 'stamp' && command !== 'check')) {
    console.error('usage: node scripts/freshness.mjs stamp|check web|server');
    process.exit(2);
  }
  if (command === 'stamp') stamp(name);
  else process.exit(isFresh(name) ? 0 : 1);
}
