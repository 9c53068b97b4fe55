// Uploads the size a phone sends: a 12-megapixel camera photo (~3 MB JPEG) and a
// 1080x1920 screenshot of a receipt. Made once per process (the photo takes ~2 s to encode).
import sharp from 'sharp';

let made: Promise<{ photo: Buffer; screenshot: Buffer }> | undefined;

export function phoneUploads(): Promise<{ photo: Buffer; screenshot: Buffer }> {
  made ??= (async () => {
    // Blurred noise: as costly to decode as a photo and about as large (~3 MB at 4032x3024).
    const photo = await sharp({
      create: {
        width: 4032,
        height: 3024,
        channels: 3,
        background: '#808080',
        noise: { type: 'gaussian', mean: 128, sigma: 25 },
      },
    })
      .blur(1)
      .jpeg({ quality: 90 })
      .toBuffer();
    const lines = Array.from(
      { length: 30 },
      (_, i) =>
        `<text x="60" y="${220 + i * 52}" font-family="sans-serif" font-size="34" fill="#222">Line ${i + 1}: Ref 1001 543 ${String(610110 + i)} PHP ${(i * 37.5).toFixed(2)}</text>`,
    ).join('');
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="1080" height="1920"><rect width="1080" height="1920" fill="#f4f6fb"/><rect width="1080" height="160" fill="#0a5cd8"/><text x="60" y="105" font-family="sans-serif" font-size="56" fill="#fff">Express Send</text>${lines}</svg>`;
    const screenshot = await sharp(Buffer.from(svg)).png().toBuffer();
    return { photo, screenshot };
  })();
  return made;
}
