#!/usr/bin/env node
// Writes test-durations.json, the seconds each Vitest file took, from the results of a run
// (Vitest's JSON report: `npm test` writes .tmp/vitest-results.json; CI's Node 20 leg
// .tmp/vitest-results-node20.json). With several reports, each file's mean. Vitest runs the
// longest files first by it (scripts/vitest-longest-first.ts). Refresh it after a full run
// when files were added or grew slow:
//
//   node scripts/test-durations.mjs .tmp/vitest-results.json [.tmp/vitest-results-node20.json]
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const reports = process.argv.slice(2);
if (reports.length === 0) {
  console.error('Name one or more Vitest JSON reports, e.g. .tmp/vitest-results.json');
  process.exit(2);
}
const sums = new Map();
for (const report of reports) {
  const results = JSON.parse(readFileSync(report, 'utf8')).testResults ?? [];
  for (const file of results) {
    if (!(file.endTime > file.startTime)) continue;
    // Reports name files absolutely, from whatever clone ran them: keep the repository path.
    const where = path.relative(root, file.name).replace(/^(\.\.\/)+[^/]+\//, '');
    const seen = sums.get(where) ?? { total: 0, count: 0 };
    sums.set(where, { total: seen.total + (file.endTime - file.startTime) / 1000, count: seen.count + 1 });
  }
}
const seconds = Object.fromEntries(
  [...sums.entries()]
    .map(([file, { total, count }]) => [file, Math.round((total / count) * 10) / 10])
    .sort((a, b) => b[1] - a[1]),
);
writeFileSync(
  path.join(root, 'test-durations.json'),
  `${JSON.stringify({ measured: new Date().toISOString().slice(0, 10), from: reports.map((r) => path.basename(r)).join(', '), seconds }, null, 2)}\n`,
);
console.log(`test-durations.json: ${sums.size} files`);
