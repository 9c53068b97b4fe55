// Batch sticker sheets: the PDF's pages are A4, its stickers 5 cm square (141.73 pt) with
// cut marks, 15 to a page, and each sticker's QR, read back out of the PDF's drawing and
// decoded with jsQR, is the rider's code. Printing a sheet marks every sticker on it printed.
import { inflateSync } from 'node:zlib';
import { STICKER_SIZE_PT } from '@rally/shared/contracts/exports';
import { and, eq, inArray } from 'drizzle-orm';
import jsQR from 'jsqr';
import { PDFArray, PDFDocument, PDFName, type PDFPage, PDFRawStream } from 'pdf-lib';
import { beforeAll, describe, expect, it } from 'vitest';
import { activities } from '../../db/schema/activities';
import { entries } from '../../db/schema/entries';
import { idCardPrints } from '../../db/schema/kit';
import { inEdition } from '../../lib/edition-of';
import { DB_KINDS, useTestApp } from '../../test/build-app';
import { type Actor, approvedRider, bearer, registerRider } from '../../test/factories';
import { firstRow, present } from '../../test/present';
import { STICKERS_PER_PAGE } from './sticker-sheet';

/** The page's drawing operators, inflated. */
function contentOf(doc: PDFDocument, page: PDFPage): string {
  const contents = page.node.Contents();
  const streams: PDFRawStream[] = [];
  if (contents instanceof PDFRawStream) streams.push(contents);
  else if (contents instanceof PDFArray) {
    for (let i = 0; i < contents.size(); i++) streams.push(doc.context.lookup(contents.get(i)) as PDFRawStream);
  }
  return streams
    .map((s) => {
      const filter = s.dict.get(PDFName.of('Filter'));
      return (filter ? inflateSync(s.contents) : Buffer.from(s.contents)).toString('latin1');
    })
    .join('\n');
}

/**
 * Every rectangle the page fills, in points: pdf-lib draws one as a path from the origin
 * (`0 0 m 0 h l w h l w 0 l h f`) after moving there (`1 0 0 1 x y cm`).
 */
function filledRectangles(content: string): Array<{ x: number; y: number; w: number; h: number }> {
  const rect = /1 0 0 1 (\S+) (\S+) cm\n(?:1 0 0 1 0 0 cm\n)*0 0 m\n0 (\S+) l\n(\S+) \S+ l\n\S+ 0 l\nh\nf\n/g;
  return [...content.matchAll(rect)].map((m) => ({
    x: Number(m[1]),
    y: Number(m[2]),
    h: Number(m[3]),
    w: Number(m[4]),
  }));
}

/** Every straight stroke of the page (`x y m x y m x2 y2 l S`), as its length in points. */
function strokes(content: string): number[] {
  const line = /(\S+) (\S+) m\n(?:\S+ \S+ m\n)?(\S+) (\S+) l\nS\n/g;
  return [...content.matchAll(line)].map((m) => Math.hypot(Number(m[3]) - Number(m[1]), Number(m[4]) - Number(m[2])));
}

/**
 * The page's QR codes, read back from the drawing: each is a block filling one rectangle per
 * run of dark modules. The rectangles are painted onto a bitmap (4 px a module, with a
 * quiet zone), which jsQR decodes. Returns each code's text (undefined when unreadable)
 * and its side in points.
 */
function qrCodesOf(content: string): Array<{ text: string | undefined; side: number }> {
  const blocks = [...content.matchAll(/q\n0\.047 0\.039 0\.035 rg\n((?:\S+ \S+ \S+ \S+ re\n)+)f\nQ/g)];
  return blocks.map((block) => {
    const rects = [...(block[1] ?? '').matchAll(/(\S+) (\S+) (\S+) (\S+) re/g)].map((m) => ({
      x: Number(m[1]),
      y: Number(m[2]),
      w: Number(m[3]),
      h: Number(m[4]),
    }));
    const module = Math.min(...rects.map((r) => r.h));
    const left = Math.min(...rects.map((r) => r.x));
    const top = Math.max(...rects.map((r) => r.y + r.h));
    const right = Math.max(...rects.map((r) => r.x + r.w));
    const modules = Math.round((right - left) / module);
    const px = 4;
    const quiet = 4;
    const side = (modules + 2 * quiet) * px;
    const rgba = new Uint8ClampedArray(side * side * 4).fill(255);
    for (const r of rects) {
      const col = Math.round((r.x - left) / module);
      const row = Math.round((top - r.y - r.h) / module);
      const width = Math.round(r.w / module);
      for (let y = (row + quiet) * px; y < (row + quiet + 1) * px; y++) {
        for (let x = (col + quiet) * px; x < (col + quiet + width) * px; x++)
          rgba.fill(0, (y * side + x) * 4, (y * side + x) * 4 + 3);
      }
    }
    return { text: jsQR(rgba, side, side)?.data, side: (modules + 4) * module };
  });
}

describe.each(DB_KINDS)('QR sticker sheets (%s)', (kind) => {
  const t = useTestApp(kind, 'admin', 'developer', 'marshall', 'officer');
  const { admin, developer, marshall, officer } = t.staff;
  let riders: Array<Actor & { riderNumber: number }>;
  let pending: Actor;

  const sheet = (actor: Actor, payload: object) =>
    t.app.inject({ method: 'POST', url: '/api/admin/stickers/sheet', headers: bearer(actor.token), payload });
  const codeOf = async (userId: string) =>
    firstRow(
      await t.database.db
        .select({ code: entries.riderCode })
        .from(entries)
        .where(and(eq(entries.userId, userId), inEdition(entries.editionId))),
    ).code;
  const printsOf = (ids: string[]) =>
    t.database.db.select().from(idCardPrints).where(inArray(idCardPrints.userId, ids));

  beforeAll(async () => {
    riders = [];
    for (let n = 1; n <= STICKERS_PER_PAGE + 2; n++) {
      riders.push(
        await approvedRider(t.app, admin, {
          riderNumber: String(100 + n),
          kitName: n === 1 ? 'Ñiño “Bagyo” 🏍️ Dela Cruz' : `WARRIOR ${n}`,
        }),
      );
    }
    pending = await registerRider(t.app, { riderNumber: '999' });
  });

  it('prints the riders named on A4 pages of 5 cm stickers with cut marks, each QR decoding to the rider code', async () => {
    const chosen = riders.slice(0, 3);
    const res = await sheet(admin, { riderIds: chosen.map((r) => r.userId) });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="qr-stickers-\d{4}-\d{2}-\d{2}\.pdf"$/);
    expect(res.headers['x-sticker-count']).toBe('3');

    const doc = await PDFDocument.load(res.rawPayload);
    expect(doc.getPageCount()).toBe(1);
    const page = present(doc.getPages()[0]);
    const { width, height } = page.getSize();
    expect(width).toBeCloseTo(595.28, 1);
    expect(height).toBeCloseTo(841.89, 1);

    const content = contentOf(doc, page);
    const stickers = filledRectangles(content).filter(
      (r) => Math.abs(r.w - STICKER_SIZE_PT) < 0.01 && Math.abs(r.h - STICKER_SIZE_PT) < 0.01,
    );
    expect(STICKER_SIZE_PT).toBeCloseTo(141.73, 2);
    expect(stickers).toHaveLength(3);
    // Every sticker lies on the page, none overlaps another.
    for (const s of stickers) {
      expect(s.x).toBeGreaterThan(14);
      expect(s.y).toBeGreaterThan(14);
      expect(s.x + s.w).toBeLessThan(width - 14);
      expect(s.y + s.h).toBeLessThan(height - 14);
    }
    // Eight cut marks per sticker (two at each corner), 6 pt each.
    const marks = strokes(content);
    expect(marks).toHaveLength(3 * 8);
    for (const length of marks) expect(length).toBeCloseTo(6, 3);

    const codes = qrCodesOf(content);
    expect(codes.map((c) => c.text)).toEqual(await Promise.all(chosen.map((r) => codeOf(r.userId))));
    // The code is 280/500 of the sticker, as on the sticker page: 2.8 cm with its quiet zone.
    for (const c of codes) expect(c.side).toBeCloseTo((STICKER_SIZE_PT * 280) / 500, 1);

    // Each sticker counts as printed, and the sheet is logged once.
    const rows = await printsOf(chosen.map((r) => r.userId));
    expect(rows).toHaveLength(3);
    expect(rows.every((r) => r.printedBy === admin.userId && r.notes === 'Sticker sheet')).toBe(true);
    const logged = await t.database.db
      .select()
      .from(activities)
      .where(and(eq(activities.type, 'sticker_sheet_printed'), eq(activities.actorId, admin.userId)));
    expect(logged).toHaveLength(1);
    expect(present(logged[0]).description).toBe('QR sticker sheet printed: 3 stickers');
    expect(present(logged[0]).details).toContain('#101, #102, #103');
  });

  it('prints every verified rider not yet printed, 15 to a page, then has nothing left', async () => {
    const res = await sheet(developer, { allUnprinted: true });
    expect(res.statusCode, res.body).toBe(200);
    const rest = riders.slice(3);
    expect(res.headers['x-sticker-count']).toBe(String(rest.length));
    const doc = await PDFDocument.load(res.rawPayload);
    expect(doc.getPageCount()).toBe(1);
    const first = present(doc.getPages()[0]);
    expect(qrCodesOf(contentOf(doc, first)).map((c) => c.text)).toEqual(
      await Promise.all(rest.map((r) => codeOf(r.userId))),
    );

    const stats = await t.app.inject({ method: 'GET', url: '/api/admin/id-cards/stats', headers: bearer(admin.token) });
    expect(stats.json().data).toMatchObject({
      total_users: riders.length,
      printed_count: riders.length,
      not_printed_count: 0,
    });

    const again = await sheet(admin, { allUnprinted: true });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ success: false, code: 'NOTHING_TO_PRINT' });
  });

  it('fills a second page after fifteen, and reprints count up', async () => {
    const res = await sheet(admin, { riderIds: riders.map((r) => r.userId) });
    expect(res.statusCode, res.body).toBe(200);
    const doc = await PDFDocument.load(res.rawPayload);
    expect(doc.getPageCount()).toBe(2);
    const [one, two] = doc.getPages();
    expect(qrCodesOf(contentOf(doc, present(one)))).toHaveLength(STICKERS_PER_PAGE);
    const onTwo = qrCodesOf(contentOf(doc, present(two))).map((c) => c.text);
    expect(onTwo).toEqual(await Promise.all(riders.slice(STICKERS_PER_PAGE).map((r) => codeOf(r.userId))));
    expect(await printsOf([present(riders[0]).userId])).toHaveLength(2);
  });

  it('refuses riders without a sticker, unknown ids, an empty choice, and staff without manage_id_cards', async () => {
    const unverified = await sheet(admin, { riderIds: [present(riders[0]).userId, pending.userId] });
    expect(unverified.statusCode).toBe(409);
    expect(unverified.json()).toMatchObject({ code: 'NOT_VERIFIED' });
    expect(unverified.json().message).toContain('#999');
    const unknown = await sheet(admin, { riderIds: ['00000000-0000-4000-8000-000000000000'] });
    expect(unknown.statusCode).toBe(404);
    expect((await sheet(admin, {})).statusCode).toBe(400);
    expect((await sheet(admin, { riderIds: [] })).statusCode).toBe(400);
    for (const who of [marshall, officer]) expect((await sheet(who, { allUnprinted: true })).statusCode).toBe(403);
    // Nothing of a refused sheet was marked printed.
    expect(await printsOf([pending.userId])).toHaveLength(0);
  });
});
