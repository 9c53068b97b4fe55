import { MAX_UPLOAD_BYTES } from '@rally/shared/catalog/registration';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, DB_KINDS, type TestApp } from '../../test/build-app';
import { bearer, jpeg, multipart, pdf, png, registerRider, staff } from '../../test/factories';

describe.each(DB_KINDS)('uploads on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(kind);
  });
  afterAll(() => t.close());

  const withAuth = (res: ReturnType<typeof multipart>, token: string) => ({
    ...res,
    headers: { ...res.headers, ...bearer(token) },
  });
  // No wait for the file queue: an upload's answer describes the processed file, and a read
  // of a file still processing waits for it (modules/file-jobs/await-processed.ts).
  const upload = (
    token: string,
    url: string,
    field: string,
    data: Buffer,
    filename = 'file.jpg',
    contentType = 'image/jpeg',
  ) =>
    t.app.inject({ method: 'POST', url, ...withAuth(multipart({}, [{ field, filename, contentType, data }]), token) });

  it('strips GPS EXIF from an uploaded JPEG', async () => {
    const rider = await registerRider(t.app);
    const original = await jpeg({ width: 120, height: 80, gps: true });
    const meta = await sharp(original).metadata();
    expect(meta.exif?.includes(Buffer.from('GPS')) || (meta.exif?.length ?? 0) > 0).toBe(true);

    const res = await upload(rider.token, '/api/upload/profile-image', 'profileImage', original);
    expect(res.statusCode).toBe(201);
    const blob = await t.app.inject({
      method: 'GET',
      url: `/api/upload/profile-image/${rider.userId}`,
      headers: bearer(rider.token),
    });
    expect(blob.statusCode).toBe(200);
    expect(blob.headers['content-type']).toBe('image/jpeg');
    const stored = await sharp(blob.rawPayload).metadata();
    expect(stored.exif).toBeUndefined();
    expect(stored.width).toBe(120);
    expect(blob.rawPayload.includes(Buffer.from('RallyCam'))).toBe(false);
  });

  it('refuses wrong magic bytes with 415, whatever the name and content type say', async () => {
    const rider = await registerRider(t.app);
    const html = Buffer.from('<!doctype html><script>alert(1)</script>');
    const img = await upload(rider.token, '/api/upload/profile-image', 'profileImage', html, 'x.jpg', 'image/jpeg');
    expect(img.statusCode).toBe(415);
    expect(img.json().message).toBe('Please select a valid image file');
    const pdfAsProfile = await upload(
      rider.token,
      '/api/upload/profile-image',
      'profileImage',
      pdf(),
      'x.pdf',
      'application/pdf',
    );
    expect(pdfAsProfile.statusCode).toBe(415);
    const exe = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(200, 1)]);
    const receipt = await upload(
      rider.token,
      '/api/upload/payment-receipt',
      'paymentReceipt',
      exe,
      'receipt.pdf',
      'application/pdf',
    );
    expect(receipt.statusCode).toBe(415);
    expect(receipt.json().message).toBe('Please select an image (JPG, PNG, GIF) or PDF file');
  });

  it('refuses 10 MB + 1 byte with 413 and the size-limit message', async () => {
    const rider = await registerRider(t.app);
    const big = Buffer.alloc(MAX_UPLOAD_BYTES + 1, 0x20);
    pdf().copy(big);
    const res = await upload(
      rider.token,
      '/api/upload/payment-receipt',
      'paymentReceipt',
      big,
      'r.pdf',
      'application/pdf',
    );
    expect(res.statusCode).toBe(413);
    expect(res.json().message).toBe('File size must be less than 10MB');
  });

  it('accepts exactly 10 MB', async () => {
    const rider = await registerRider(t.app);
    const max = Buffer.alloc(MAX_UPLOAD_BYTES, 0x20);
    pdf().copy(max);
    const res = await upload(
      rider.token,
      '/api/upload/payment-receipt',
      'paymentReceipt',
      max,
      'r.pdf',
      'application/pdf',
    );
    expect(res.statusCode).toBe(201);
  });

  it('keeps a PDF receipt, lists and deletes files, and only the owner deletes', async () => {
    const rider = await registerRider(t.app);
    const other = await registerRider(t.app);
    const res = await upload(
      rider.token,
      '/api/upload/payment-receipt',
      'paymentReceipt',
      pdf(),
      'r.pdf',
      'application/pdf',
    );
    expect(res.statusCode).toBe(201);
    const fileId = res.json().data.file.id;
    const list = await t.app.inject({ method: 'GET', url: '/api/upload/user-files', headers: bearer(rider.token) });
    const receipts = list.json().data.files.filter((f: { kind: string }) => f.kind === 'payment_receipt');
    expect(receipts).toHaveLength(1);
    expect(receipts[0]).toMatchObject({ id: fileId, mimeType: 'application/pdf' });

    const stolen = await t.app.inject({
      method: 'DELETE',
      url: `/api/upload/payment-receipt/${fileId}`,
      headers: bearer(other.token),
    });
    expect(stolen.statusCode).toBe(404);
    const mine = await t.app.inject({
      method: 'DELETE',
      url: `/api/upload/payment-receipt/${fileId}`,
      headers: bearer(rider.token),
    });
    expect(mine.statusCode).toBe(200);
    const gone = await t.app.inject({
      method: 'GET',
      url: `/api/upload/payment-receipt/${rider.userId}`,
      headers: bearer(rider.token),
    });
    expect(gone.statusCode).toBe(404);
    expect(gone.json().message).toBe('Payment receipt not found');
  });

  it('lets only the owner and verify_users staff read a receipt', async () => {
    const rider = await registerRider(t.app);
    const other = await registerRider(t.app);
    const url = `/api/upload/payment-receipt/${rider.userId}`;
    expect((await t.app.inject({ method: 'GET', url, headers: bearer(rider.token) })).statusCode).toBe(200);
    expect((await t.app.inject({ method: 'GET', url })).statusCode).toBe(401);
    expect((await t.app.inject({ method: 'GET', url, headers: bearer(other.token) })).statusCode).toBe(404);
    for (const role of ['admin', 'marshall', 'developer'] as const) {
      const s = await staff(t.app, t.database.db, role);
      const res = await t.app.inject({ method: 'GET', url, headers: bearer(s.token) });
      expect(res.statusCode).toBe(200);
      expect(res.headers['cache-control']).toBe('private, no-store');
    }
    for (const role of ['officer', 'guest', 'participant'] as const) {
      const s = await staff(t.app, t.database.db, role);
      expect((await t.app.inject({ method: 'GET', url, headers: bearer(s.token) })).statusCode).toBe(404);
    }
  });

  it('serves public profile images with an ETag and 304, and 404s for inactive riders or none', async () => {
    const rider = await registerRider(t.app);
    const res = await t.app.inject({ method: 'GET', url: `/api/public/profile-image/${rider.userId}` });
    expect(res.statusCode).toBe(200);
    expect(res.headers.etag).toMatch(/^"[0-9a-f]{64}"$/);
    expect(res.headers['cache-control']).toContain('public');
    const again = await t.app.inject({
      method: 'GET',
      url: `/api/public/profile-image/${rider.userId}`,
      headers: { 'if-none-match': res.headers.etag as string },
    });
    expect(again.statusCode).toBe(304);
    const s = await staff(t.app, t.database.db, 'officer');
    const none = await t.app.inject({ method: 'GET', url: `/api/public/profile-image/${s.userId}` });
    expect(none.statusCode).toBe(404);
    expect(none.json().message).toBe('Profile image not found');
    const bad = await t.app.inject({ method: 'GET', url: '/api/public/profile-image/not-a-uuid' });
    expect(bad.statusCode).toBe(400);
  });

  it('serves smaller square copies of a profile picture on both routes, never enlarged, with their own ETag', async () => {
    const rider = await registerRider(t.app);
    const big = await jpeg({ width: 1600, height: 1200 });
    expect((await upload(rider.token, '/api/upload/profile-image', 'profileImage', big)).statusCode).toBe(201);
    const stored = await t.app.inject({ method: 'GET', url: `/api/public/profile-image/${rider.userId}` });
    expect((await sharp(stored.rawPayload).metadata()).width).toBe(1600);

    for (const [size, edge] of [
      ['thumb', 128],
      ['display', 480],
    ] as const) {
      for (const [url, headers] of [
        [`/api/public/profile-image/${rider.userId}?size=${size}`, {}],
        [`/api/upload/profile-image/${rider.userId}?size=${size}`, bearer(rider.token)],
      ] as const) {
        const res = await t.app.inject({ method: 'GET', url, headers });
        expect(res.statusCode, url).toBe(200);
        expect(res.headers['content-type']).toBe('image/jpeg');
        expect(res.headers.etag).toBe(`"${(stored.headers.etag as string).slice(1, -1)}-${size}"`);
        const meta = await sharp(res.rawPayload).metadata();
        expect([meta.width, meta.height]).toEqual([edge, edge]);
        expect(res.rawPayload.length).toBeLessThan(stored.rawPayload.length);
        // A revalidation is answered without a resize.
        const again = await t.app.inject({
          method: 'GET',
          url,
          headers: { ...headers, 'if-none-match': res.headers.etag as string },
        });
        expect(again.statusCode).toBe(304);
      }
    }

    // A picture smaller than the copy is cropped square but not blown up.
    const small = await registerRider(t.app);
    await upload(small.token, '/api/upload/profile-image', 'profileImage', await jpeg({ width: 300, height: 200 }));
    const display = await t.app.inject({
      method: 'GET',
      url: `/api/public/profile-image/${small.userId}?size=display`,
    });
    const meta = await sharp(display.rawPayload).metadata();
    expect([meta.width, meta.height]).toEqual([200, 200]);

    const bad = await t.app.inject({ method: 'GET', url: `/api/public/profile-image/${rider.userId}?size=huge` });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ success: false, message: 'size must be thumb or display' });
  });

  it('re-encodes PNG and GIF uploads and replaces the previous image', async () => {
    const rider = await registerRider(t.app);
    const first = await upload(
      rider.token,
      '/api/upload/profile-image',
      'profileImage',
      await png(30, 30),
      'a.png',
      'image/png',
    );
    expect(first.statusCode).toBe(201);
    expect(first.json().data.file.mimeType).toBe('image/png');
    const gif = await sharp({ create: { width: 20, height: 10, channels: 3, background: '#f80' } })
      .gif()
      .toBuffer();
    const second = await upload(rider.token, '/api/upload/profile-image', 'profileImage', gif, 'b.gif', 'image/gif');
    expect(second.statusCode).toBe(201);
    // Answered once processed: a GIF is kept re-encoded, never as sent.
    expect(second.json().data.file.mimeType).not.toBe('image/gif');
    const list = await t.app.inject({ method: 'GET', url: '/api/upload/user-files', headers: bearer(rider.token) });
    const images = list.json().data.files.filter((f: { kind: string }) => f.kind === 'profile_image');
    expect(images).toHaveLength(1);
    expect(images[0]).toMatchObject({ width: 20, height: 10 });
  });

  it('refuses a multipart without the file, a non-multipart body, and an unexpected file field', async () => {
    const rider = await registerRider(t.app);
    const empty = await t.app.inject({
      method: 'POST',
      url: '/api/upload/profile-image',
      ...withAuth(multipart({ a: 'b' }), rider.token),
    });
    expect(empty.statusCode).toBe(400);
    const json = await t.app.inject({
      method: 'POST',
      url: '/api/upload/profile-image',
      headers: bearer(rider.token),
      payload: { a: 1 },
    });
    expect(json.statusCode).toBe(415);
    const extra = await t.app.inject({
      method: 'POST',
      url: '/api/upload/profile-image',
      ...withAuth(
        multipart({}, [{ field: 'other', filename: 'x.jpg', contentType: 'image/jpeg', data: await jpeg() }]),
        rider.token,
      ),
    });
    expect(extra.statusCode).toBe(400);
  });
});
