// The text layer of a PDF (a receipt saved as PDF, GCash's emailed statement), read with
// pdfjs-dist's legacy build, the one that runs in Node without a browser.

export interface PdfTextItem {
  str: string;
  x: number;
  y: number;
}

const MAX_PAGES = 200;

export const isPdf = (bytes: Buffer) => bytes.subarray(0, 5).toString('latin1') === '%PDF-';

/** The text of a PDF's pages as positioned items; null when it cannot be opened or has no text layer. */
export async function pdfTextItems(bytes: Buffer): Promise<PdfTextItem[][] | null> {
  // Loaded on first use: the library is large and most processes never read a PDF.
  const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  let doc: Awaited<ReturnType<typeof getDocument>['promise']>;
  try {
    doc = await getDocument({ data: new Uint8Array(bytes), isEvalSupported: false, verbosity: 0 }).promise;
  } catch {
    return null;
  }
  try {
    const pages: PdfTextItem[][] = [];
    for (let n = 1; n <= Math.min(doc.numPages, MAX_PAGES); n++) {
      const page = await doc.getPage(n);
      const content = await page.getTextContent();
      const items: PdfTextItem[] = [];
      for (const item of content.items) {
        if (!('str' in item) || item.str.trim() === '') continue;
        items.push({ str: item.str.trim(), x: item.transform[4] as number, y: item.transform[5] as number });
      }
      pages.push(items);
    }
    return pages.some((p) => p.length > 0) ? pages : null;
  } catch {
    return null;
  } finally {
    await doc.destroy();
  }
}

/** Items on (about) the same baseline, left to right; lines top to bottom. */
export function linesOf(items: PdfTextItem[]): PdfTextItem[][] {
  const sorted = [...items].sort((a, b) => b.y - a.y || a.x - b.x);
  const lines: PdfTextItem[][] = [];
  for (const item of sorted) {
    const last = lines.at(-1);
    if (last && Math.abs((last[0] as PdfTextItem).y - item.y) < 3) last.push(item);
    else lines.push([item]);
  }
  for (const line of lines) line.sort((a, b) => a.x - b.x);
  return lines;
}

/** The PDF's text, a line per line of print; null without a text layer. */
export async function pdfText(bytes: Buffer): Promise<string | null> {
  const pages = await pdfTextItems(bytes);
  if (!pages) return null;
  return pages
    .map((items) =>
      linesOf(items)
        .map((line) => line.map((i) => i.str).join(' '))
        .join('\n'),
    )
    .join('\n');
}
