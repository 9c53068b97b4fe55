import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { hashDistance, imageHash } from './image-hash';

/** A picture with structure: bands of grey whose order the seed shuffles. */
async function picture(seed: number, width = 640, height = 480): Promise<Buffer> {
  const bands = Array.from({ length: 8 }, (_, i) => ((i * 37 + seed * 91) % 256).toString(16).padStart(2, '0'));
  const rects = bands
    .map((g, i) => `<rect x="${(i * width) / 8}" y="0" width="${width / 8}" height="${height}" fill="#${g}${g}${g}"/>`)
    .join('');
  const circle = `<circle cx="${(seed * 53) % width}" cy="${height / 2}" r="${height / 4}" fill="#${seed % 2 ? 'fff' : '000'}"/>`;
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}">${rects}${circle}</svg>`;
  return sharp(Buffer.from(svg)).png().toBuffer();
}

describe('imageHash', () => {
  it('is 16 hex digits, the same for the same picture', async () => {
    const a = await picture(1);
    const hash = await imageHash(a);
    expect(hash).toMatch(/^[0-9a-f]{16}$/);
    expect(await imageHash(a)).toBe(hash);
  });

  it('stays within a few bits across re-encoding and rescaling', async () => {
    const a = await picture(2);
    const asJpeg = await sharp(a).jpeg({ quality: 60 }).toBuffer();
    const smaller = await sharp(a).resize(320).jpeg({ quality: 80 }).toBuffer();
    const base = await imageHash(a);
    expect(hashDistance(base, await imageHash(asJpeg))).toBeLessThanOrEqual(4);
    expect(hashDistance(base, await imageHash(smaller))).toBeLessThanOrEqual(4);
  });

  it('tells different pictures apart', async () => {
    const a = await imageHash(await picture(3));
    const b = await imageHash(await picture(7));
    expect(hashDistance(a, b)).toBeGreaterThan(10);
  });

  it('counts differing bits', () => {
    expect(hashDistance('0000000000000000', '0000000000000000')).toBe(0);
    expect(hashDistance('0000000000000000', 'ffffffffffffffff')).toBe(64);
    expect(hashDistance('00000000000000f0', '0000000000000010')).toBe(3);
  });
});
