// Issue 16: a receipt was accepted as a PDF on its `%PDF` prefix and shown inline. PDFs
// are parsed now, served as attachments, and HTTPS replies carry HSTS.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HSTS } from '../../lib/security-headers';
import { buildTestApp, DB_KINDS, type TestApp } from '../../test/build-app';
import { bearer, encryptedPdf, multipart, pdf, png, registerRider } from '../../test/factories';
import { waitForFiles } from '../../test/wait-for-files';

describe.each(DB_KINDS)('PDF receipts on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    // Behind one trusted proxy, as in production, so X-Forwarded-Proto is believed.
    t = await buildTestApp(kind, { trustProxy: 1 });
  });
  afterAll(() => t.close());

  const upload = async (token: string, data: Buffer, filename: string, contentType: string) => {
    const body = multipart({}, [{ field: 'paymentReceipt', filename, contentType, data }]);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/upload/payment-receipt',
      headers: { ...body.headers, ...bearer(token) },
      payload: body.payload,
    });
    // An image is processed by the file queue after the answer; the tests read it back.
    if (res.statusCode === 201) await waitForFiles(t.app);
    return res;
  };

  it('refuses what only looks like a PDF: HTML behind %PDF, no pages, encrypted', async () => {
    const rider = await registerRider(t.app);
    const html = Buffer.from('%PDF-1.4\n<html><body><script>alert(document.domain)</script></body></html>');
    const fake = await upload(rider.token, html, 'r.pdf', 'application/pdf');
    expect(fake.statusCode).toBe(400);
    expect(fake.json()).toMatchObject({
      code: 'UNREADABLE_PDF',
      message: 'The PDF could not be read. Please choose another file.',
    });
    const empty = Buffer.from(
      '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n',
    );
    expect((await upload(rider.token, empty, 'r.pdf', 'application/pdf')).json().code).toBe('UNREADABLE_PDF');
    const locked = await upload(rider.token, encryptedPdf(), 'r.pdf', 'application/pdf');
    expect(locked.statusCode).toBe(400);
    expect(locked.json()).toMatchObject({ code: 'ENCRYPTED_PDF' });
    expect(locked.json().message).toMatch(/^Password-protected PDFs cannot be checked/);
  });

  it('serves a PDF as an attachment with nosniff, and an image inline', async () => {
    const rider = await registerRider(t.app);
    expect((await upload(rider.token, pdf(), 'r.pdf', 'application/pdf')).statusCode).toBe(201);
    const served = await t.app.inject({
      method: 'GET',
      url: `/api/upload/payment-receipt/${rider.userId}`,
      headers: bearer(rider.token),
    });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('application/pdf');
    expect(served.headers['content-disposition']).toBe('attachment; filename="receipt.pdf"');
    expect(served.headers['x-content-type-options']).toBe('nosniff');

    expect((await upload(rider.token, await png(), 'r.png', 'image/png')).statusCode).toBe(201);
    const image = await t.app.inject({
      method: 'GET',
      url: `/api/upload/payment-receipt/${rider.userId}`,
      headers: bearer(rider.token),
    });
    expect(image.headers['content-type']).toBe('image/png');
    expect(image.headers['content-disposition']).toBeUndefined();
  });

  it('sends HSTS over HTTPS (as the trusted proxy reports it) and not over plain HTTP', async () => {
    const https = await t.app.inject({
      method: 'GET',
      url: '/api/health',
      remoteAddress: '10.0.0.2',
      headers: { 'x-forwarded-proto': 'https', 'x-forwarded-for': '198.51.100.5' },
    });
    expect(https.headers['strict-transport-security']).toBe(HSTS);
    const http = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(http.headers['strict-transport-security']).toBeUndefined();
  });
});
