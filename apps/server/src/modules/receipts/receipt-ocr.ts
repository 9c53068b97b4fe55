// Reads a receipt image on this machine (DESIGN.md §13): tesseract.js with the English data
// installed from npm, nothing fetched at run time. One worker, started when a receipt waits and
// terminated after a while without one: tesseract holds ~100 MB that an idle server must not.
import { createRequire } from 'node:module';
import path from 'node:path';
import sharp from 'sharp';
import { type Bbox, createWorker, OEM, type Page, PSM, type Worker } from 'tesseract.js';
import { parseReceiptText, type ReceiptFields, type RecognisedLine } from './receipt-text';

/** What the reader found on a receipt image; each field with its confidence (0–1). */
export interface ReceiptText extends ReceiptFields {
  /** Everything recognised, for the desk to see what the reader saw. */
  text: string;
}

/**
 * How long the worker stays up without a receipt to read before it is terminated
 * (RECEIPT_OCR_IDLE_MS, set by the file queue's plugin from the config).
 */
export const DEFAULT_READER_IDLE_MS = 30_000;
let idleMs = DEFAULT_READER_IDLE_MS;

// The LSTM-only data (tesseract's "best" model, integer): the legacy engine is not loaded at all.
const require = createRequire(import.meta.url);
const LANG_PATH = path.join(path.dirname(require.resolve('@tesseract.js-data/eng/package.json')), '4.0.0_best_int');

let worker: Promise<Worker> | null = null;
let idleTimer: NodeJS.Timeout | null = null;
/** Receipts are read one after another: tesseract's parameters are per worker, and 2 cores are shared. */
let queue: Promise<unknown> = Promise.resolve();
let starts = 0;

/** Sets the idle time before the worker stops (tests shorten it). */
export function setReceiptReaderIdleMs(ms: number): void {
  idleMs = ms;
}

/** Whether the OCR worker is up, and how many times it was started: for tests and the bench. */
export function receiptReaderState(): { running: boolean; starts: number } {
  return { running: worker !== null, starts };
}

function startWorker(): Promise<Worker> {
  starts++;
  const started = createWorker('eng', OEM.LSTM_ONLY, {
    langPath: LANG_PATH,
    gzip: true,
    // Read the data where npm put it; write no cached copy anywhere.
    cacheMethod: 'none',
  }).then(async (w) => {
    await w.setParameters({
      // A receipt is one column of lines of different sizes.
      tessedit_pageseg_mode: PSM.SINGLE_COLUMN,
      preserve_interword_spaces: '0',
      user_defined_dpi: '300',
    });
    return w;
  });
  // A worker that failed to start is forgotten, so the next receipt tries again.
  started.catch(() => {
    if (worker === started) worker = null;
  });
  return started;
}

function armIdleTimer(): void {
  if (idleTimer) clearTimeout(idleTimer);
  idleTimer = setTimeout(() => {
    idleTimer = null;
    void stopReceiptReader();
  }, idleMs);
  idleTimer.unref();
}

const WORK_WIDTH = 1200;
/** The second opinion's width: a different scale makes different slips; smaller, so tesseract's heap grows no further. */
const SECOND_WIDTH = 1000;
const THRESHOLD_BELOW_BACKGROUND = 40;

/**
 * Greyscale, dark mode turned light, contrast stretched, small text scaled up to what tesseract
 * reads best, then black and white.
 */
async function prepareImage(image: Buffer, turn: Turn, workWidth: number): Promise<{ grey: Buffer; binary: Buffer }> {
  // EXIF orientation first (a phone photo of a receipt), then the turn being tried.
  let pipeline = sharp(image, { failOn: 'none' }).rotate();
  if (turn) pipeline = sharp(await pipeline.toBuffer()).rotate(turn);
  const { data, info } = await pipeline.greyscale().raw().toBuffer({ resolveWithObject: true });
  let sum = 0;
  for (let i = 0; i < data.length; i += 7) sum += data[i] ?? 0;
  // Dark mode: turned light here, on the raw bytes (sharp's negate would hand back three channels).
  if (sum / Math.ceil(data.length / 7) < 110) for (let i = 0; i < data.length; i++) data[i] = 255 - (data[i] ?? 0);
  // Contrast stretched (1st to 99th percentile), here too, to know the levels for the threshold.
  const histogram = new Array<number>(256).fill(0);
  for (const v of data) histogram[v] = (histogram[v] ?? 0) + 1;
  const level = (share: number) => {
    let seen = 0;
    for (let v = 0; v < 256; v++) {
      seen += histogram[v] ?? 0;
      if (seen >= share * data.length) return v;
    }
    return 255;
  };
  const lo = level(0.01);
  const hi = Math.max(lo + 1, level(0.99));
  const stretch = (v: number) => Math.max(0, Math.min(255, Math.round(((v - lo) * 255) / (hi - lo))));
  for (let i = 0; i < data.length; i++) data[i] = stretch(data[i] ?? 0);
  // The threshold sits under the darkest large light area (the page, or a card on it): text is
  // darker than the background it is printed on, whichever that is.
  let background = 255;
  for (let v = 255; v > 100; v--)
    if ((histogram[v] ?? 0) >= 0.05 * data.length) background = Math.min(background, stretch(v));
  const threshold = Math.max(110, Math.min(230, background - THRESHOLD_BELOW_BACKGROUND));
  // Screenshots are 720–1440 px wide: all are brought to one width, where the smallest line
  // (the reference) is ~30 px high, what tesseract reads best; wider costs memory and time.
  let out = sharp(data, { raw: { width: info.width, height: info.height, channels: 1 } });
  if (workWidth !== info.width) out = out.resize({ width: workWidth, kernel: 'lanczos3' });
  const grey = await out.png({ compressionLevel: 1 }).toBuffer();
  return { grey, binary: await sharp(grey).threshold(threshold).png({ compressionLevel: 1 }).toBuffer() };
}

function linesOf(page: Page): RecognisedLine[] {
  const lines: RecognisedLine[] = [];
  for (const block of page.blocks ?? [])
    for (const paragraph of block.paragraphs)
      for (const line of paragraph.lines)
        lines.push(line.words.map((w) => ({ text: w.text, confidence: w.confidence })));
  return lines;
}

type Turn = 0 | 90 | 180 | 270;

interface Pass {
  text: string;
  lines: RecognisedLine[];
  reading: ReceiptText;
  page: Page;
  /** The page before binarising, where the reference is looked at again. */
  prepared: { grey: Buffer; binary: Buffer };
}

async function recognise(w: Worker, image: Buffer, turn: Turn, workWidth = WORK_WIDTH): Promise<Pass> {
  const prepared = await prepareImage(image, turn, workWidth);
  // Binarised here, after scaling: tesseract's own thresholding took a card on a grey page and
  // the rules between rows for text, and lost whole receipts.
  const { data } = await w.recognize(prepared.binary, {}, { text: true, blocks: true });
  const lines = linesOf(data);
  return { text: data.text, lines, reading: { text: data.text, ...parseReceiptText(lines) }, page: data, prepared };
}

const digitCount = (text: string) => text.replace(/[-.,:]/g, '').length;
const mostlyDigits = (text: string) => {
  const t = text.replace(/[-.,:]/g, '');
  return t.length > 0 && (t.match(/\d/g)?.length ?? 0) * 2 >= t.length;
};

/** Where the reference was printed: the run of number-like words on a line that holds as many characters as it has digits. */
function referenceBox(page: Page, reference: string): Bbox | null {
  for (const block of page.blocks ?? [])
    for (const paragraph of block.paragraphs)
      for (const line of paragraph.lines) {
        const words = line.words;
        for (let i = 0; i < words.length; i++) {
          let count = 0;
          let j = i;
          while (j < words.length && mostlyDigits(words[j]?.text ?? '') && count < reference.length)
            count += digitCount(words[j++]?.text ?? '');
          if (j > i && count === reference.length) {
            const run = words.slice(i, j).map((x) => x.bbox);
            return {
              x0: Math.min(...run.map((b) => b.x0)),
              y0: Math.min(...run.map((b) => b.y0)),
              x1: Math.max(...run.map((b) => b.x1)),
              y1: Math.max(...run.map((b) => b.y1)),
            };
          }
        }
      }
  return null;
}

/**
 * The reference read again on its own: its words cut out, scaled up and read as one line of
 * digits. A slip in a digit that tesseract was sure of (a 0 read as a 6) is the one error the
 * desk cannot see, since it names the wrong receipt as a duplicate; a second, closer look finds it.
 */
async function rereadReference(w: Worker, pass: Pass): Promise<string | null> {
  const reference = pass.reading.referenceNumber;
  if (!reference) return null;
  const box = referenceBox(pass.page, reference);
  if (!box) return null;
  const meta = await sharp(pass.prepared.grey).metadata();
  const pad = Math.round((box.y1 - box.y0) * 0.6);
  const left = Math.max(0, box.x0 - pad);
  const top = Math.max(0, box.y0 - pad);
  const width = Math.min((meta.width ?? 0) - left, box.x1 - box.x0 + 2 * pad);
  const height = Math.min((meta.height ?? 0) - top, box.y1 - box.y0 + 2 * pad);
  if (width <= 0 || height <= 0) return null;
  const strip = await sharp(pass.prepared.grey)
    .extract({ left, top, width, height })
    .resize({ height: height * 2, kernel: 'lanczos3' })
    .png()
    .toBuffer();
  await w.setParameters({ tessedit_pageseg_mode: PSM.SINGLE_LINE, tessedit_char_whitelist: '0123456789 ' });
  try {
    const { data } = await w.recognize(strip, {}, { text: true });
    return data.text.replace(/\D/g, '');
  } finally {
    await w.setParameters({ tessedit_pageseg_mode: PSM.SINGLE_COLUMN, tessedit_char_whitelist: '' });
  }
}

/** Fewer pixels than this (about 300 × 500): too small for a receipt's text to be read. */
const MIN_RECEIPT_PIXELS = 150_000;

/** A reading that found nothing: an image too small, a PDF with no text layer. */
export const NOTHING_READ: ReceiptText = {
  text: '',
  referenceNumber: null,
  amountCentavos: null,
  paidAt: null,
  recipient: null,
  confidence: { referenceNumber: null, amount: null, paidAt: null, recipient: null },
};

/** Fewer letters and digits than this on the first pass: the picture holds no text. */
const MIN_TEXT_CHARACTERS = 8;
const alphanumerics = (text: string) => text.replace(/[^A-Za-z0-9]/g, '').length;

/** How much of a receipt was read: the reference and the amount matter most. */
function found(r: ReceiptText): number {
  return (
    (r.referenceNumber ? 2 + (r.confidence.referenceNumber ?? 0) : 0) +
    (r.amountCentavos !== null ? 1 : 0) +
    (r.paidAt ? 1 : 0) +
    (r.recipient ? 0.5 : 0)
  );
}

/** Reads a processed receipt image (JPEG or PNG bytes). Starts the OCR worker on demand. */
export async function readReceiptImage(image: Buffer): Promise<ReceiptText> {
  // A picture too small to hold a receipt's text (an avatar, a thumbnail) is not worth
  // starting the OCR worker for: nothing on it could be read.
  const size = await sharp(image, { failOn: 'none' }).metadata();
  if ((size.width ?? 0) * (size.height ?? 0) < MIN_RECEIPT_PIXELS) return NOTHING_READ;
  const job = queue.then(async () => {
    if (idleTimer) clearTimeout(idleTimer);
    idleTimer = null;
    worker ??= startWorker();
    const w = await worker;
    try {
      // Receipts are portrait screenshots: one wider than tall was turned on its side, so the
      // quarter turns are tried first; upside down is tried last.
      const meta = await sharp(image, { failOn: 'none' }).metadata();
      const swapped = (meta.orientation ?? 1) >= 5; // EXIF orientations 5–8 turn the picture a quarter
      const sideways = swapped ? (meta.height ?? 0) > (meta.width ?? 0) : (meta.width ?? 0) > (meta.height ?? 0);
      const turns = sideways ? ([90, 270, 0, 180] as const) : ([0, 180, 90, 270] as const);
      let best: Pass | null = null;
      let bestTurn: Turn = 0;
      // Turn by turn until the reference, the amount and the date are all read; the reading
      // that found the most is kept.
      for (const turn of turns) {
        const next = await recognise(w, image, turn);
        if (!best || found(next.reading) > found(best.reading)) {
          best = next;
          bestTurn = turn;
        }
        const r = best.reading;
        if (r.referenceNumber && r.amountCentavos !== null && r.paidAt) break;
        // A picture with no text at all (a photo, a blank page) is not a receipt on its side:
        // turned text still reads as letters. Nothing more to try, at a quarter of the cost.
        if (turn === turns[0] && alphanumerics(next.text) < MIN_TEXT_CHARACTERS) return best.reading;
      }
      if (!best) throw new Error('no reading');
      // A second opinion at another scale where the first was unsure (the amount's two printings
      // disagreed, the reference was not found or needed corrections): both passes' lines are
      // read together, so a figure read the same way twice outvotes a slip.
      let r = best.reading;
      if (!r.referenceNumber || (r.confidence.referenceNumber ?? 0) < 0.6 || (r.confidence.amount ?? 0) < 0.6) {
        const second = await recognise(w, image, bestTurn, SECOND_WIDTH);
        const merged = { text: best.text, ...parseReceiptText([...best.lines, ...second.lines]) };
        if (found(merged) >= found(r)) r = merged;
      }
      const reread = await rereadReference(w, best);
      if (r.referenceNumber && reread && reread !== r.referenceNumber) {
        // The two looks disagree: a third (the whole page at another scale) decides; without a
        // majority the closer look is kept, and the desk is told the reader was unsure.
        const third = (await recognise(w, image, bestTurn, SECOND_WIDTH)).reading.referenceNumber;
        const agreed = third === reread || third === r.referenceNumber ? third : null;
        const confidence = Math.min(r.confidence.referenceNumber ?? 0, agreed ? 0.75 : 0.4);
        r = { ...r, referenceNumber: agreed ?? reread, confidence: { ...r.confidence, referenceNumber: confidence } };
      }
      return r;
    } finally {
      armIdleTimer();
    }
  });
  queue = job.catch(() => undefined);
  return job;
}

/** Stops the OCR worker (idle, or the server closing). */
export async function stopReceiptReader(): Promise<void> {
  if (idleTimer) clearTimeout(idleTimer);
  idleTimer = null;
  // In the queue, after the receipt being read: a receipt queued meanwhile starts a new worker.
  const stop = queue.then(async () => {
    const current = worker;
    worker = null;
    if (!current) return;
    try {
      await (await current).terminate();
    } catch {
      // A worker that never started has nothing to stop.
    }
  });
  queue = stop;
  await stop;
}
