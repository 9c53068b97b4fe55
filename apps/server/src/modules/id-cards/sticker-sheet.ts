// Batch sticker sheets (issue 17): A4 pages of 5 cm × 5 cm QR stickers with cut marks, as
// one PDF. Each sticker is the console's sticker (id-cards/components/sticker-drawing.ts
// on the web) at print size: the black header with the rider number, the QR of the rider
// code (level H, version 5 or more, a 2-module quiet zone, as the sticker page makes it),
// the kit name, the rider's name and the code in text.
//
// The QR is drawn as vector rectangles (one per run of dark modules in a row), written
// straight into a content stream of the page: sharp at any printer resolution, and a sheet
// of 1,000 stickers takes seconds (embedding a PNG per sticker took ~50 s and ~550 MB).
// It has no centre logo: a 2.8 cm code on a sticker scans best whole, and the logo would
// only spend error correction the code may need after a rainy day.
import { RIDER_QR_MIN_VERSION } from '@rally/shared/catalog/web-client';
import { STICKER_SIZE_PT } from '@rally/shared/contracts/exports';
import type { PDFDocument, PDFFont, PDFPage } from 'pdf-lib';

export interface SheetSticker {
  riderCode: string;
  riderNumber: number | null;
  kitName: string | null;
  firstName: string;
  lastName: string;
}

/** A4 in points. */
export const A4: readonly [number, number] = [595.28, 841.89];
export const STICKER_COLUMNS = 3;
export const STICKER_ROWS = 5;
export const STICKERS_PER_PAGE = STICKER_COLUMNS * STICKER_ROWS;
/** 6 mm between stickers: room for both neighbours' cut marks. */
const GUTTER = (6 / 25.4) * 72;
const MARK_GAP = 2;
const MARK_LENGTH = 6;
const QUIET_ZONE = 2;

/** Where sticker `i` of a page sits (bottom-left corner, PDF points). */
export function stickerOrigin(i: number): { x: number; y: number } {
  const S = STICKER_SIZE_PT;
  const gridW = STICKER_COLUMNS * S + (STICKER_COLUMNS - 1) * GUTTER;
  const gridH = STICKER_ROWS * S + (STICKER_ROWS - 1) * GUTTER;
  const left = (A4[0] - gridW) / 2;
  const top = A4[1] - (A4[1] - gridH) / 2;
  const col = i % STICKER_COLUMNS;
  const row = Math.floor(i / STICKER_COLUMNS);
  return { x: left + col * (S + GUTTER), y: top - (row + 1) * S - row * GUTTER };
}

let qrcodeLoaded: Promise<typeof import('qrcode')> | undefined;

/** The QR modules of a rider code, with the sticker page's settings (level H, version 5 or more). */
export async function riderQr(code: string): Promise<{ size: number; dark(row: number, col: number): boolean }> {
  qrcodeLoaded ??= import('qrcode').then((m) => (m as { default?: typeof import('qrcode') }).default ?? m);
  const QRCode = await qrcodeLoaded;
  let qr: ReturnType<typeof QRCode.create>;
  try {
    qr = QRCode.create(code, { errorCorrectionLevel: 'H', version: RIDER_QR_MIN_VERSION });
  } catch {
    // Longer than version 5 holds at level H: the smallest version that holds it.
    qr = QRCode.create(code, { errorCorrectionLevel: 'H' });
  }
  return { size: qr.modules.size, dark: (row, col) => !!qr.modules.get(row, col) };
}

const pt = (n: number) => n.toFixed(3);

/**
 * PDF operators filling the dark modules of a QR whose square (quiet zone included) has
 * its bottom-left corner at (x, y). Edges are computed per module line, so neighbouring
 * rectangles share them exactly and no hairline shows between rows.
 */
export function qrOperators(qr: Awaited<ReturnType<typeof riderQr>>, x: number, y: number, side: number): string {
  const cells = qr.size + 2 * QUIET_ZONE;
  const m = side / cells;
  const left = (col: number) => Number(pt(x + (col + QUIET_ZONE) * m));
  const top = (row: number) => Number(pt(y + side - (row + QUIET_ZONE) * m));
  const ops = ['q', '0.047 0.039 0.035 rg'];
  for (let r = 0; r < qr.size; r++) {
    for (let c = 0; c < qr.size; c++) {
      if (!qr.dark(r, c)) continue;
      let end = c;
      while (end + 1 < qr.size && qr.dark(r, end + 1)) end++;
      const x0 = left(c);
      const y0 = top(r + 1);
      ops.push(`${pt(x0)} ${pt(y0)} ${pt(left(end + 1) - x0)} ${pt(top(r) - y0)} re`);
      c = end;
    }
  }
  ops.push('f', 'Q');
  return ops.join('\n');
}

/**
 * Text the standard PDF fonts (WinAnsi) can print: accents kept where the font has them,
 * else the bare letter; what it cannot print at all (emoji, other scripts) is left out.
 */
function printable(font: PDFFont, text: string): string {
  const known = new Set(font.getCharacterSet());
  const kept = [...text.normalize('NFC')]
    .map((ch) => {
      if (known.has(ch.codePointAt(0) ?? 0)) return ch;
      const plain = ch.normalize('NFKD').replace(/\p{M}/gu, '');
      return plain !== '' && [...plain].every((p) => known.has(p.codePointAt(0) ?? 0)) ? plain : '';
    })
    .join('')
    .replace(/\s+/g, ' ')
    .trim();
  return kept || '?';
}

/** The largest size up to `size` at which the text fits the width. */
function fitted(font: PDFFont, text: string, size: number, maxWidth: number): number {
  let s = size;
  while (s > 3 && font.widthOfTextAtSize(text, s) > maxWidth) s -= 0.25;
  return s;
}

export async function stickerSheetPdf(stickers: readonly SheetSticker[], title: string): Promise<Buffer> {
  const { PDFDocument, StandardFonts, rgb } = await import('pdf-lib');
  const doc = await PDFDocument.create();
  doc.setTitle(title);
  doc.setCreator('Mindanao Warriors Rally');
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const mono = await doc.embedFont(StandardFonts.CourierBold);
  const INK = rgb(0.047, 0.039, 0.035);
  const FIRE = rgb(0.918, 0.345, 0.047);
  const FIRE_LIGHT = rgb(0.984, 0.573, 0.235);
  const STONE = rgb(0.267, 0.251, 0.235);
  const WHITE = rgb(1, 1, 1);
  const S = STICKER_SIZE_PT;
  const k = S / 500; // the web sticker is drawn on 500 units
  const pages = Math.ceil(stickers.length / STICKERS_PER_PAGE);

  /** The QR operators of the page being drawn, written after pdf-lib's own (see addRawContent). */
  let qrs: string[] = [];
  const drawSticker = async (page: PDFPage, sticker: SheetSticker, x: number, y: number) => {
    const top = y + S;
    page.drawRectangle({ x, y, width: S, height: S, color: WHITE });
    page.drawRectangle({ x, y: top - 58 * k, width: S, height: 58 * k, color: INK });
    page.drawRectangle({ x: x + 8 * k, y: top - 63 * k, width: S - 16 * k, height: 5 * k, color: FIRE });
    page.drawRectangle({
      x: x + 4 * k,
      y: y + 4 * k,
      width: S - 8 * k,
      height: S - 8 * k,
      borderColor: INK,
      borderWidth: 8 * k,
    });
    const header = 'MINDANAO WARRIORS';
    const headerSize = fitted(bold, header, 24 * k, S - 170 * k);
    page.drawText(header, {
      x: x + 22 * k,
      y: top - 31 * k - headerSize * 0.35,
      size: headerSize,
      font: bold,
      color: WHITE,
    });
    const number = sticker.riderNumber === null ? 'N/A' : `#${sticker.riderNumber}`;
    const numberSize = fitted(bold, number, 32 * k, 140 * k);
    page.drawText(number, {
      x: x + S - 22 * k - bold.widthOfTextAtSize(number, numberSize),
      y: top - 32 * k - numberSize * 0.35,
      size: numberSize,
      font: bold,
      color: FIRE_LIGHT,
    });

    const qr = 280 * k;
    qrs.push(qrOperators(await riderQr(sticker.riderCode), x + (S - qr) / 2, top - 74 * k - qr, qr));

    const centred = (text: string, font: PDFFont, size: number, fromTop: number, color: typeof INK) => {
      const clean = printable(font, text);
      const s = fitted(font, clean, size, S - 60 * k);
      page.drawText(clean, {
        x: x + (S - font.widthOfTextAtSize(clean, s)) / 2,
        y: top - fromTop,
        size: s,
        font,
        color,
      });
    };
    centred((sticker.kitName?.trim() || 'No Kit Name').toUpperCase(), bold, 30 * k, 392 * k, INK);
    centred(`${sticker.firstName} ${sticker.lastName}`.trim(), regular, 20 * k, 422 * k, STONE);
    centred(sticker.riderCode, mono, 20 * k, 456 * k, INK);
    page.drawRectangle({ x: x + S / 2 - 60 * k, y: top - 478 * k, width: 120 * k, height: 4 * k, color: FIRE });
  };

  /** Crop marks outside each corner, in the gutter: cut along them and every sticker is 5 cm. */
  const drawCutMarks = (page: PDFPage, x: number, y: number) => {
    const line = (sx: number, sy: number, ex: number, ey: number) =>
      page.drawLine({ start: { x: sx, y: sy }, end: { x: ex, y: ey }, thickness: 0.5, color: INK });
    for (const cx of [x, x + S]) {
      for (const cy of [y, y + S]) {
        const hx = cx === x ? -1 : 1;
        const vy = cy === y ? -1 : 1;
        line(cx + hx * MARK_GAP, cy, cx + hx * (MARK_GAP + MARK_LENGTH), cy);
        line(cx, cy + vy * MARK_GAP, cx, cy + vy * (MARK_GAP + MARK_LENGTH));
      }
    }
  };

  for (let p = 0; p < pages; p++) {
    const page = doc.addPage([...A4]);
    qrs = [];
    const onPage = stickers.slice(p * STICKERS_PER_PAGE, (p + 1) * STICKERS_PER_PAGE);
    for (const [i, sticker] of onPage.entries()) {
      const { x, y } = stickerOrigin(i);
      await drawSticker(page, sticker, x, y);
      drawCutMarks(page, x, y);
    }
    page.drawText(printable(regular, `${title} · page ${p + 1} of ${pages} · print at 100% (actual size)`), {
      x: 36,
      y: 14,
      size: 7,
      font: regular,
      color: STONE,
    });
    addRawContent(doc, page, qrs.join('\n'));
  }
  return Buffer.from(await doc.save());
}

/** Appends operators as one more (compressed) content stream of the page, drawn last. */
function addRawContent(doc: PDFDocument, page: PDFPage, operators: string): void {
  if (operators === '') return;
  page.node.addContentStream(doc.context.register(doc.context.flateStream(operators)));
}
