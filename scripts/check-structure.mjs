#!/usr/bin/env node
// `npm run check:structure` (and the lint phase of `npm test`): the measures of the code's
// shape that must not slip back.
//   - The server's import graph: no cycle, and no import against the layering (lib and db
//     below the modules, services below routes, the entry points on top). The rules are in
//     .dependency-cruiser.cjs; dependency-cruiser checks them.
//   - The README stays a front door a newcomer reads in minutes; the rest lives in docs/.
// Prints each finding and exits 1 when any measure fails.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';

/** The README's length limit, in lines. */
export const README_MAX_LINES = 170;

const root = path.resolve(import.meta.dirname, '..');
const problems = [];

// The import graph.
// A root devDependency: its command line, run on this Node (the package exports no bin path).
const cruiserBin = path.join(root, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');
const cruise = spawnSync(
  process.execPath,
  [cruiserBin, 'apps/server/src', '--config', '.dependency-cruiser.cjs', '--output-type', 'err'],
  { cwd: root, stdio: 'inherit' },
);
if (cruise.status !== 0) {
  problems.push('the server’s import graph breaks a rule of .dependency-cruiser.cjs (listed above)');
} else {
  console.log('Import graph of apps/server/src: no cycle, no import against the layering.');
}

// The front door.
const readme = readFileSync(path.join(root, 'README.md'), 'utf8');
const readmeLines = readme.split('\n').length - (readme.endsWith('\n') ? 1 : 0);
if (readmeLines > README_MAX_LINES) {
  problems.push(`README.md has ${readmeLines} lines, over the ${README_MAX_LINES} allowed: move detail to docs/`);
} else {
  console.log(`README.md: ${readmeLines} lines (at most ${README_MAX_LINES}).`);
}

for (const problem of problems) console.error(`check-structure: ${problem}`);
process.exit(problems.length > 0 ? 1 : 0);
