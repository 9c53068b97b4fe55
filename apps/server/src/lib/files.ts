// Every upload is sniffed by its magic bytes (extension and Content-Type are not
// trusted); images are decoded and re-encoded, which drops all metadata (EXIF, GPS) and
// any bytes smuggled around the picture; PDFs are parsed (pdf-lib) and kept as they are
// only when they are real, unencrypted documents with at least one page.
//
// Two halves (DESIGN.md §13): `acceptUpload` is what a request does (the cheap checks, the
// original kept as sent), `processImage` what the file queue does later (decode at a
// reduced scale, re-encode, hash).
import { IMAGE_MAX_EDGE, IMAGE_MAX_INPUT_PIXELS } from '@rally/shared/catalog/registration';
import type { Metadata, Sharp } from 'sharp';
import { concurrencyLimit } from './concurrency-limit';
import { BadRequestError, UnsupportedMediaTypeError } from './errors';
import { sha256Hex } from './tokens';

export type FileKind = 'profile_image' | 'payment_receipt';

export interface ProcessedFile {
  kind: FileKind;
  /**
   * 'processing': the original as sent, waiting for the file queue (served to nobody);
   * 'ready' (or absent): processed already, or a PDF, which is kept as sent.
   */
  status?: 'processing' | 'ready';
  mimeType: 'image/jpeg' | 'image/png' | 'application/pdf';
  data: Buffer;
  sizeBytes: number;
  width: number | null;
  height: number | null;
  sha256: string;
  originalName: string | null;
}

export const WRONG_TYPE_MESSAGE: Record<FileKind, string> = {
  profile_image: 'Please select a valid image file',
  payment_receipt: 'Please select an image (JPG, PNG, GIF) or PDF file',
};

const IMAGE_TYPES = new Set(['image/jpeg', 'image/png', 'image/gif']);

function cleanName(name: string | undefined | null): string | null {
  if (!name) return null;
  // Keep a display name only: no paths, no control characters.
  const base = name.split(/[\\/]/).pop() ?? '';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point
  const cleaned = base.replace(/[\u0000-\u001f\u007f]/g, '').slice(0, 200);
  return cleaned || null;
}

/** An upload that passed the request's checks, handed to a service that stores it. */
export type PendingUpload = () => Promise<ProcessedFile>;

/**
 * The request's half of an upload, the cheap checks: refuses an empty file, a wrong type (by
 * magic bytes), a cut-off image and one whose header is unreadable or declares too many
 * pixels, without decoding any pixels. The original is kept as sent, to be stored
 * 'processing' and processed by the file queue. A PDF is parsed here (cheap) and, needing
 * no processing, stored 'ready'.
 */
export async function acceptUpload(
  kind: FileKind,
  buffer: Buffer,
  originalName?: string | null,
): Promise<ProcessedFile> {
  if (buffer.length === 0) throw new BadRequestError('The uploaded file is empty', 'EMPTY_FILE');
  const { fileTypeFromBuffer } = await import('file-type');
  const mime = (await fileTypeFromBuffer(buffer))?.mime;
  const name = cleanName(originalName);
  if (mime === 'application/pdf' && kind === 'payment_receipt') {
    await checkPdf(buffer);
    return {
      kind,
      status: 'ready',
      mimeType: 'application/pdf',
      data: buffer,
      sizeBytes: buffer.length,
      width: null,
      height: null,
      sha256: sha256Hex(buffer),
      originalName: name,
    };
  }
  if (!mime || !IMAGE_TYPES.has(mime)) throw new UnsupportedMediaTypeError(WRONG_TYPE_MESSAGE[kind], 'WRONG_FILE_TYPE');
  assertComplete(buffer, mime);
  const meta = await readImageHeader(buffer);
  return {
    kind,
    status: 'processing',
    mimeType: mime as ProcessedFile['mimeType'],
    data: buffer,
    sizeBytes: buffer.length,
    width: meta.width ?? null,
    height: meta.height ?? null,
    sha256: sha256Hex(buffer),
    originalName: name,
  };
}

/**
 * A cut-off image is refused at once, as when it was decoded in the request: a JPEG has an
 * end-of-image marker after its scan starts (bytes may follow it; a polyglot's do, and
 * re-encoding drops them), a PNG its IEND chunk, a GIF its trailer byte. Searching the
 *  bytes costs well under a millisecond for a phone photo; decoding a 12-MP one ~110 ms of a core.
 */
function assertComplete(buffer: Buffer, mime: string): void {
  const complete =
    mime === 'image/jpeg'
      ? buffer.lastIndexOf(JPEG_EOI) > buffer.indexOf(JPEG_SOS)
      : mime === 'image/png'
        ? buffer.lastIndexOf(PNG_IEND) > 8
        : buffer.lastIndexOf(0x3b) > 13;
  if (!complete) throw unreadable();
}
const JPEG_SOS = Buffer.from([0xff, 0xda]);
const JPEG_EOI = Buffer.from([0xff, 0xd9]);
const PNG_IEND = Buffer.from('IEND');

export const UNREADABLE_PDF_MESSAGE = 'The PDF could not be read. Please choose another file.';
export const ENCRYPTED_PDF_MESSAGE =
  'Password-protected PDFs cannot be checked. Please upload the receipt without a password, or a photo of it.';

/**
 * A `%PDF` prefix proves nothing (a page of HTML can start with it): the document is
 * parsed, and refused when it is encrypted (staff could not read it, nor can we) or has
 * no page.
 */
async function checkPdf(buffer: Buffer): Promise<void> {
  let pages: number;
  try {
    // pdf-lib loads with the first PDF receipt, like sharp with the first image.
    const { PDFDocument } = await import('pdf-lib');
    const doc = await PDFDocument.load(buffer, { throwOnInvalidObject: true, updateMetadata: false });
    pages = doc.getPageCount();
  } catch (err) {
    if (/encrypted/i.test((err as Error).message)) throw new BadRequestError(ENCRYPTED_PDF_MESSAGE, 'ENCRYPTED_PDF');
    throw new BadRequestError(UNREADABLE_PDF_MESSAGE, 'UNREADABLE_PDF');
  }
  if (pages < 1) throw new BadRequestError(UNREADABLE_PDF_MESSAGE, 'UNREADABLE_PDF');
}

/**
 * sharp (libvips, ~15 MB of native code once touched) and file-type load with the first
 * upload, not at start: most of a server's life has none. libvips' operation cache is
 * off: every upload is a different image, so it never hits and only kept up to 50 MB of
 * decoded pixels through a registration rush (docs/benchmarks.md, "Memory").
 */
let sharpLoaded: Promise<typeof import('sharp')> | undefined;
export function loadSharp(): Promise<typeof import('sharp')> {
  sharpLoaded ??= import('sharp').then((m) => {
    m.default.cache(false);
    // One libvips thread per image: with one re-encode at a time (below) the other core
    // hashes passwords meanwhile, and each extra thread held its own pixel buffers (rush
    // peak on PostgreSQL 263-268 -> 249-256 MB at the same rate, docs/benchmarks.md "Memory").
    m.default.concurrency(1);
    return m.default;
  });
  return sharpLoaded;
}

async function sharpInput(buffer: Buffer): Promise<Sharp> {
  const sharp = await loadSharp();
  return sharp(buffer, { limitInputPixels: IMAGE_MAX_INPUT_PIXELS, failOn: 'error', animated: false });
}
const tooLarge = () =>
  new BadRequestError('Image dimensions are too large. Please choose a smaller image.', 'IMAGE_TOO_LARGE');
const unreadable = () =>
  new BadRequestError('The image could not be read. Please choose another file.', 'UNREADABLE_IMAGE');

async function readImageHeader(buffer: Buffer): Promise<Metadata> {
  let meta: Metadata;
  try {
    meta = await (await sharpInput(buffer)).metadata();
  } catch (err) {
    // sharp reads only the header here and refuses a pixel flood by its declared size.
    if (/pixel limit/i.test((err as Error).message)) throw tooLarge();
    throw unreadable();
  }
  if (!meta.width || !meta.height || meta.width * meta.height > IMAGE_MAX_INPUT_PIXELS) throw tooLarge();
  return meta;
}

/** What the file queue makes of an original: the image to serve. */
export interface ProcessedImage extends ProcessedFile {
  mimeType: 'image/jpeg' | 'image/png';
}

/**
 * The queue's half: decodes the original (at a reduced scale where the decoder can: a
 * 12-megapixel JPEG kept at IMAGE_MAX_EDGE is decoded at 1/2, 1/4 or 1/8 of its size by
 * libjpeg, never whole), re-encodes it under the same rules as before the queue, and hashes
 * Throws UNREADABLE_IMAGE / IMAGE_TOO_LARGE for an image that will never decode.
 */
export async function processImage(
  kind: FileKind,
  buffer: Buffer,
  originalName: string | null,
): Promise<ProcessedImage> {
  const { fileTypeFromBuffer } = await import('file-type');
  const mime = (await fileTypeFromBuffer(buffer))?.mime;
  if (!mime || !IMAGE_TYPES.has(mime)) throw unreadable();
  const meta = await readImageHeader(buffer);
  const file = await reencodeImage(kind, buffer, mime, meta, originalName);
  return { ...file, status: 'ready', mimeType: file.mimeType as ProcessedImage['mimeType'] };
}

// Decoding, resizing and encoding a phone photo holds tens of MB of pixels in libvips: one
// re-encode at a time keeps the rush's peak memory down at the same throughput
// (docs/benchmarks.md, "Memory").
const reencodeSlot = concurrencyLimit(1);

function reencodeImage(...args: Parameters<typeof reencode>): Promise<ProcessedFile> {
  return reencodeSlot(() => reencode(...args));
}

async function reencode(
  kind: FileKind,
  buffer: Buffer,
  mime: string,
  meta: Metadata,
  originalName: string | null,
): Promise<ProcessedFile> {
  const keepPng = mime !== 'image/jpeg' && !!meta.hasAlpha;
  try {
    const pipeline = (await sharpInput(buffer))
      .rotate() // apply the EXIF orientation before the metadata is dropped
      // fastShrinkOnLoad (sharp's default, spelled out because it is the point): libjpeg and
      // libwebp decode straight at the largest 1/2^n scale still above the target, so a
      // 4000x3000 photo kept at 800 px is decoded at 1000x750.
      .resize({
        width: IMAGE_MAX_EDGE,
        height: IMAGE_MAX_EDGE,
        fit: 'inside',
        withoutEnlargement: true,
        fastShrinkOnLoad: true,
      });
    const { data, info } = keepPng
      ? await pipeline.png({ compressionLevel: 6 }).toBuffer({ resolveWithObject: true })
      : await pipeline
          .flatten({ background: '#ffffff' })
          // No second pass for optimal Huffman tables: it cost ~40% of the re-encoding's
          // CPU (the rush's two phone uploads: 85 -> 58 ms) for files ~8% smaller.
          .jpeg({ quality: 85, optimiseCoding: false })
          .toBuffer({ resolveWithObject: true });
    return {
      kind,
      mimeType: keepPng ? ('image/png' as const) : ('image/jpeg' as const),
      data,
      sizeBytes: data.length,
      width: info.width,
      height: info.height,
      sha256: sha256Hex(data),
      originalName,
    };
  } catch {
    throw unreadable();
  }
}
