// Writes the installable app's PNG icons (public/icons/) from the logo: the web manifest
// needs 192 and 512 px PNGs, and a "maskable" one with the logo inside the safe zone (phones
// crop it to a circle or squircle). Run again after the logo changes; the output is committed.
//   node scripts/make-icons.mjs
import { mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';

const web = path.resolve(import.meta.dirname, '..');
const logo = readFileSync(path.join(web, 'public', 'logo.svg'));
const out = path.join(web, 'public', 'icons');
mkdirSync(out, { recursive: true });
const INK = '#0c0a09';

async function icon(size, logoShare, file) {
  const inner = Math.round(size * logoShare);
  const art = await sharp(logo, { density: 1200 })
    .resize(inner, inner, { fit: 'contain', background: INK })
    .png()
    .toBuffer();
  await sharp({ create: { width: size, height: size, channels: 4, background: INK } })
    .composite([{ input: art, gravity: 'center' }])
    .png({ compressionLevel: 9 })
    .toFile(path.join(out, file));
  console.log(`wrote public/icons/${file}`);
}

await icon(192, 0.86, 'icon-192.png');
await icon(512, 0.86, 'icon-512.png');
// Maskable: the safe zone is the centre circle of 80% diameter.
await icon(512, 0.62, 'icon-maskable-512.png');
await icon(180, 0.8, 'apple-touch-icon.png');
