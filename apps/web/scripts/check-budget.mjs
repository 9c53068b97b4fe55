// Performance budget: the landing page may ship at most 100 KB of gzipped
// JavaScript before interaction. That is the entry chunk plus every chunk it imports
// statically (the browser fetches those before running anything); dynamic imports (other
// routes, the map, the cropper, the console) load on demand and do not count.
import { readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const BUDGET_BYTES = 100 * 1024;
// Optional argument: another build directory (e.g. a private `vite build --outDir`).
const dist = process.argv[2] ? resolve(process.argv[2]) : join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');

let manifest;
try {
  manifest = JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8'));
} catch (error) {
  console.error(
    `check-budget: cannot read dist/.vite/manifest.json (run vite build with build.manifest): ${error.message}`,
  );
  process.exit(1);
}

const entries = Object.entries(manifest).filter(([, chunk]) => chunk.isEntry && chunk.file.endsWith('.js'));
if (entries.length === 0) {
  console.error('check-budget: no JS entry chunk in the manifest');
  process.exit(1);
}

const seen = new Set();
const files = [];
const visit = (key) => {
  if (seen.has(key)) return;
  seen.add(key);
  const chunk = manifest[key];
  if (!chunk) return;
  if (chunk.file.endsWith('.js')) files.push(chunk.file);
  for (const dep of chunk.imports ?? []) visit(dep);
};
for (const [key] of entries) visit(key);

let total = 0;
const rows = files.map((file) => {
  const gz = gzipSync(readFileSync(join(dist, file)), { level: 9 }).length;
  total += gz;
  return { file, gz };
});

const kb = (bytes) => `${(bytes / 1024).toFixed(1)} KB`;
for (const { file, gz } of rows) console.log(`  ${kb(gz).padStart(9)}  ${file}`);
console.log(`Landing page JS before interaction: ${kb(total)} gzipped (budget ${kb(BUDGET_BYTES)})`);

if (total > BUDGET_BYTES) {
  console.error(
    `check-budget: FAILED - the landing page ships ${kb(total)} of gzipped JavaScript before interaction, ` +
      `over the ${kb(BUDGET_BYTES)} budget. Move heavy code behind a dynamic import().`,
  );
  process.exit(1);
}
