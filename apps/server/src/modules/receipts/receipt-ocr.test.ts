import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { type DrawReceiptOptions, drawReceipt } from '../../test/receipt-images';
import { readReceiptImage, receiptReaderState, setReceiptReaderIdleMs, stopReceiptReader } from './receipt-ocr';

// Real tesseract on drawn receipts: a few images, each a different way a screenshot arrives.
const GCASH: DrawReceiptOptions = {
  style: 'gcash',
  reference: '1001543610110',
  amountCentavos: 150_000,
  // Mar 12, 2026 2:31 PM in Manila.
  paidAt: new Date('2026-03-12T06:31:00Z'),
  recipient: 'JU** DE* C.',
  recipientPhone: '+63 917 *** 4321',
};

async function expectRead(opts: DrawReceiptOptions) {
  const r = await readReceiptImage(await drawReceipt(opts));
  expect(r.referenceNumber).toBe(opts.reference);
  expect(r.amountCentavos).toBe(opts.amountCentavos);
  expect(r.paidAt?.toISOString()).toBe(opts.paidAt.toISOString());
  expect(r.confidence.referenceNumber).toBeGreaterThan(0.5);
  expect(r.confidence.amount).toBeGreaterThan(0.5);
  return r;
}

describe('readReceiptImage', () => {
  afterAll(async () => {
    await stopReceiptReader();
    setReceiptReaderIdleMs(30_000);
  });

  it('reads a plain GCash receipt (PNG): reference, amount, date and time, recipient', async () => {
    const r = await expectRead(GCASH);
    expect(r.recipient).toBe('JU** DE* C. / +63 917 *** 4321');
    expect(r.text).toContain('Express Send');
  }, 60_000);

  it('reads a small, tilted, dark-mode GCash JPEG at low quality', async () => {
    await expectRead({
      ...GCASH,
      reference: '8697251656359',
      amountCentavos: 65_050,
      paidAt: new Date('2026-09-17T14:45:00Z'),
      width: 720,
      font: 'Liberation Sans Narrow',
      format: 'jpeg',
      quality: 45,
      rotate: -2,
      dark: true,
    });
  }, 60_000);

  it('reads a GCash screenshot turned on its side', async () => {
    await expectRead({
      ...GCASH,
      reference: '9575726035835',
      rotate: 90,
      format: 'jpeg',
      quality: 70,
      font: 'DejaVu Serif',
    });
  }, 90_000);

  it('reads a bank transfer confirmation (JPEG, cropped): any length of reference, PHP amount', async () => {
    await expectRead({
      style: 'bank',
      reference: '67822092934',
      amountCentavos: 275_022,
      paidAt: new Date('2026-07-22T06:15:00Z'),
      recipient: 'KL*** TJ* E.',
      recipientPhone: '+63 917 *** 6166',
      width: 1080,
      font: 'DejaVu Sans',
      format: 'jpeg',
      quality: 60,
      crop: true,
    });
  }, 60_000);

  it('says what it could not read with nulls', async () => {
    const blank = await sharp({ create: { width: 600, height: 900, channels: 3, background: '#ffffff' } })
      .png()
      .toBuffer();
    const r = await readReceiptImage(blank);
    expect(r.referenceNumber).toBeNull();
    expect(r.amountCentavos).toBeNull();
    expect(r.confidence.referenceNumber).toBeNull();
  }, 60_000);

  it('reads nothing off a picture too small to be a receipt, without starting the worker for it', async () => {
    await stopReceiptReader();
    const { starts } = receiptReaderState();
    const avatar = await sharp({ create: { width: 48, height: 48, channels: 3, background: '#0a78c8' } })
      .png()
      .toBuffer();
    const r = await readReceiptImage(avatar);
    expect(r).toMatchObject({ text: '', referenceNumber: null, amountCentavos: null, paidAt: null, recipient: null });
    expect(receiptReaderState()).toEqual({ running: false, starts });
  });

  it('stops the worker when idle and starts it again for the next receipt', async () => {
    setReceiptReaderIdleMs(200);
    const image = await drawReceipt(GCASH);
    await readReceiptImage(image);
    const { starts } = receiptReaderState();
    expect(receiptReaderState().running).toBe(true);
    const deadline = Date.now() + 10_000;
    while (receiptReaderState().running && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(receiptReaderState().running).toBe(false);
    const again = await readReceiptImage(image);
    expect(again.referenceNumber).toBe(GCASH.reference);
    expect(receiptReaderState()).toEqual({ running: true, starts: starts + 1 });
  }, 60_000);
});
