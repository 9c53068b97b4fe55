// A registration with the uploads a phone sends is answered once the originals are stored;
// the images become ready, and servable, when the queue has processed them.
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { IMAGE_MAX_EDGE } from '@rally/shared/catalog/registration';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { files } from '../../db/schema/files';
import { fileJobs } from '../../db/schema/receipts';
import { buildTestApp, DB_KINDS, type TestApp } from '../../test/build-app';
import { bearer, multipart, registrationFields } from '../../test/factories';
import { phoneUploads } from '../../test/phone-uploads';
import { waitForFiles } from '../../test/wait-for-files';

describe.each(DB_KINDS)('registration files through the queue on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(kind);
  });
  afterAll(() => t.close());

  it('answers before the images are processed, serves nobody the original, waits for the processed image', async () => {
    const { photo, screenshot } = await phoneUploads();
    const body = multipart(registrationFields(), [
      { field: 'profileImage', filename: 'IMG_0001.jpg', contentType: 'image/jpeg', data: photo },
      { field: 'paymentReceipt', filename: 'Screenshot.png', contentType: 'image/png', data: screenshot },
    ]);
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/register-with-uploads', ...body });
    expect(res.statusCode).toBe(201);
    const { token } = res.json();
    const userId: string = res.json().data.user.id;

    // Answered with the photo still as sent: decoding 12 megapixels takes the queue far
    // longer than this look-up.
    const stored = await t.database.db
      .select({
        id: files.id,
        kind: files.kind,
        status: files.status,
        sizeBytes: files.sizeBytes,
        storageKey: files.storageKey,
      })
      .from(files)
      .where(eq(files.userId, userId));
    const profile = stored.find((f) => f.kind === 'profile_image');
    expect(profile).toMatchObject({ status: 'processing', sizeBytes: photo.length });
    // On the embedded database the originals wait in the spool on disk, each as sent; on
    // PostgreSQL, in their rows.
    const spooled = (key: string | null | undefined) =>
      key && t.config.uploadSpoolDir ? path.join(t.config.uploadSpoolDir, key.slice('spool/'.length)) : null;
    const original = spooled(profile?.storageKey);
    if (kind === 'pglite') {
      expect(original).not.toBeNull();
      expect(readFileSync(original as string).equals(photo)).toBe(true);
    } else {
      expect(profile?.storageKey).toBeNull();
    }
    // Asked for now, the picture is waited for (the queue's event says when it is done) and
    // what comes is the processed image, never the original.
    const early = await t.app.inject({
      method: 'GET',
      url: `/api/upload/profile-image/${userId}`,
      headers: bearer(token),
    });
    expect(early.statusCode).toBe(200);
    expect(early.rawPayload.equals(photo)).toBe(false);
    const earlyMeta = await sharp(early.rawPayload).metadata();
    expect(Math.max(earlyMeta.width ?? 0, earlyMeta.height ?? 0)).toBe(IMAGE_MAX_EDGE);

    await waitForFiles(t.app);
    const after = await t.database.db
      .select({
        kind: files.kind,
        status: files.status,
        phash: files.phash,
        mimeType: files.mimeType,
        storageKey: files.storageKey,
      })
      .from(files)
      .where(eq(files.userId, userId));
    for (const f of after) {
      expect(f).toMatchObject({ status: 'ready', phash: expect.stringMatching(/^[0-9a-f]{16}$/), storageKey: null });
    }
    // The processed copies are in their rows and the originals gone from the spool.
    for (const f of stored) {
      const file = spooled(f.storageKey);
      if (file) expect(existsSync(file)).toBe(false);
    }
    const served = await t.app.inject({
      method: 'GET',
      url: `/api/upload/profile-image/${userId}`,
      headers: bearer(token),
    });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/jpeg');
    const meta = await sharp(served.rawPayload).metadata();
    expect(Math.max(meta.width ?? 0, meta.height ?? 0)).toBe(IMAGE_MAX_EDGE);
    expect(served.rawPayload.length).toBeLessThan(photo.length);
    const receipt = await t.app.inject({
      method: 'GET',
      url: `/api/upload/payment-receipt/${userId}`,
      headers: bearer(token),
    });
    expect(receipt.statusCode).toBe(200);
    // The receipt, processed, waits to be read.
    const receiptId = after.length && stored.find((f) => f.kind === 'payment_receipt')?.id;
    if (!receiptId) throw new Error('no receipt stored');
    const jobs = await t.database.db
      .select({ kind: fileJobs.kind, status: fileJobs.status })
      .from(fileJobs)
      .where(eq(fileJobs.fileId, receiptId));
    expect(jobs).toEqual(
      expect.arrayContaining([{ kind: 'process', status: 'done' }, expect.objectContaining({ kind: 'read' })]),
    );
  });
});
