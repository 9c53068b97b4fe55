// Issue 41: POST /api/my/entries takes a receipt like every other upload route, so it is held
// to the same per-account upload budget: parallel sends past it are refused before their
// files are read, re-encoded or stored.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config';
import { buildTestApp, DB_KINDS, type TestApp } from '../../test/build-app';
import { bearer, jpeg, multipart, registerRider, registrationFields } from '../../test/factories';

const UPLOAD_BUDGET = 3;

describe.each(DB_KINDS)('the upload budget of POST /api/my/entries (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(kind, {
      rateLimits: loadConfig({ RATE_LIMIT_UPLOADS: String(UPLOAD_BUDGET) }).rateLimits,
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('refuses parallel sends past the upload budget with 429', async () => {
    const rider = await registerRider(t.app);
    const body = multipart(registrationFields(), [
      { field: 'paymentReceipt', filename: 'receipt.jpg', contentType: 'image/jpeg', data: await jpeg() },
    ]);
    const sends = await Promise.all(
      Array.from({ length: UPLOAD_BUDGET * 3 }, () =>
        t.app.inject({
          method: 'POST',
          url: '/api/my/entries',
          payload: body.payload,
          headers: { ...body.headers, ...bearer(rider.token) },
        }),
      ),
    );
    const refused = sends.filter((res) => res.statusCode === 429);
    expect(sends.length - refused.length).toBe(UPLOAD_BUDGET);
    expect(refused[0]?.json()).toMatchObject({ success: false, message: expect.any(String) });
  });
});
