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
