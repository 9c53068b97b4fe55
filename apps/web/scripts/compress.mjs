// Writes .br and .gz beside every text asset of the build, so the server sends them
// precompressed (@fastify/static preCompressed) instead of raw: measured by Lighthouse,
// uncompressed assets cost a slow-4G phone ~2 s before the first paint of the landing page.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const dist = path.resolve(import.meta.dirname, '..', process.env.WEB_OUT_DIR ?? 'dist');
const TEXT = /\.(js|mjs|css|html|svg|json|txt|webmanifest)$/;

let files = 0;
let before = 0;
let after = 0;
function walk(dir) {
  for (const name of readdirSync(dir)) {
    const full = path.join(dir, name);
    // The server's renderer (dist/ssr, see prerender.mjs) is read from disk, never sent.
    if (dir === dist && name === 'ssr') continue;
    if (statSync(full).isDirectory()) walk(full);
    else if (TEXT.test(name)) {
      const data = readFileSync(full);
      if (data.length < 1024) continue;
      const br = brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } });
      writeFileSync(`${full}.br`, br);
      writeFileSync(`${full}.gz`, gzipSync(data, { level: 9 }));
      files++;
      before += data.length;
      after += br.length;
    }
  }
}
walk(dist);
console.log(
  `Precompressed ${files} files: ${(before / 1024).toFixed(0)} KB -> ${(after / 1024).toFixed(0)} KB (brotli)`,
);
