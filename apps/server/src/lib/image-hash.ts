// A 64-bit perceptual hash of an image (dHash): the picture shrunk to 9x8 grey pixels,
// one bit per pair of horizontal neighbours (is the left one brighter?). Re-encoding,
// rescaling and small edits leave it within a few bits; a different picture differs in
// about half of them. Used as a secondary signal for near-identical receipts (DESIGN.md
// §13): receipts of one app all look alike, so it never decides alone.
import { loadSharp } from './files';

/** 16 hex digits. */
export async function imageHash(image: Buffer): Promise<string> {
  const sharp = await loadSharp();
  const { data, info } = await sharp(image, { failOn: 'error' })
    .rotate()
    .greyscale()
    // fill: the 9x8 grid covers the whole picture whatever its shape.
    .resize(9, 8, { fit: 'fill', kernel: 'lanczos3' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  const channels = info.channels;
  let bits = 0n;
  for (let y = 0; y < 8; y++) {
    for (let x = 0; x < 8; x++) {
      const left = data[(y * 9 + x) * channels] ?? 0;
      const right = data[(y * 9 + x + 1) * channels] ?? 0;
      bits = (bits << 1n) | (left > right ? 1n : 0n);
    }
  }
  return bits.toString(16).padStart(16, '0');
}

/** How many of the 64 bits two hashes differ in. */
export function hashDistance(a: string, b: string): number {
  let x = BigInt(`0x${a}`) ^ BigInt(`0x${b}`);
  let n = 0;
  while (x > 0n) {
    n += Number(x & 1n);
    x >>= 1n;
  }
  return n;
}
