import { PNG } from 'pngjs';

/** A real PNG (diagonal fire gradient) for upload tests. */
export function pngFixture(width = 480, height = 360): Buffer {
  const png = new PNG({ width, height });
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (width * y + x) << 2;
      png.data[i] = 200 + Math.round((55 * x) / width);
      png.data[i + 1] = Math.round((160 * y) / height);
      png.data[i + 2] = 40;
      png.data[i + 3] = 255;
    }
  }
  return PNG.sync.write(png);
}

/**
 * A real PNG of random coloured blocks, different on every call: a rider's own picture.
 * The desk flags the same file, or a near-identical picture with no readable reference, on
 * two riders (DESIGN.md §13); riders of unrelated tests must not look alike to it.
 */
export function uniqueImageFixture(width = 200, height = 300, block = 25): Buffer {
  const png = new PNG({ width, height });
  const colours = new Map<string, [number, number, number]>();
  const colour = (bx: number, by: number) => {
    const key = `${bx}:${by}`;
    let c = colours.get(key);
    if (!c) {
      c = [0, 0, 0].map(() => Math.floor(Math.random() * 256)) as [number, number, number];
      colours.set(key, c);
    }
    return c;
  };
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (width * y + x) << 2;
      const [r, g, b] = colour(Math.floor(x / block), Math.floor(y / block));
      png.data[i] = r;
      png.data[i + 1] = g;
      png.data[i + 2] = b;
      png.data[i + 3] = 255;
    }
  }
  return PNG.sync.write(png);
}
