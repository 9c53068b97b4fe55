// Every upload is sniffed by its magic bytes (extension and Content-Type are not
// trusted); images are decoded and re-encoded, which drops all metadata (EXIF, GPS) and
// any bytes smuggled around the picture; PDFs are kept as they are.
import { IMAGE_MAX_EDGE, IMAGE_MAX_INPUT_PIXELS } from '@rally/shared/catalog';
import { fileTypeFromBuffer } from 'file-type';
import sharp from 'sharp';
import { BadRequestError, UnsupportedMediaTypeError } from './errors';
import { sha256Hex } from './tokens';

export type FileKind = 'profile_image' | 'payment_receipt';

export interface ProcessedFile {
  kind: FileKind;
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

export async function processUpload(
  kind: FileKind,
  buffer: Buffer,
  originalName?: string | null,
): Promise<ProcessedFile> {
  if (buffer.length === 0) throw new BadRequestError('The uploaded file is empty', 'EMPTY_FILE');
  const detected = await fileTypeFromBuffer(buffer);
  const mime = detected?.mime;
  if (mime === 'application/pdf' && kind === 'payment_receipt') {
    return {
      kind,
      mimeType: 'application/pdf',
      data: buffer,
      sizeBytes: buffer.length,
      width: null,
      height: null,
      sha256: sha256Hex(buffer),
      originalName: cleanName(originalName),
    };
  }
  if (!mime || !IMAGE_TYPES.has(mime)) throw new UnsupportedMediaTypeError(WRONG_TYPE_MESSAGE[kind], 'WRONG_FILE_TYPE');
  return reencodeImage(kind, buffer, mime, cleanName(originalName));
}

async function reencodeImage(kind: FileKind, buffer: Buffer, mime: string, originalName: string | null) {
  const input = () => sharp(buffer, { limitInputPixels: IMAGE_MAX_INPUT_PIXELS, failOn: 'error', animated: false });
  const tooLarge = () =>
    new BadRequestError('Image dimensions are too large. Please choose a smaller image.', 'IMAGE_TOO_LARGE');
  let meta: sharp.Metadata;
  try {
    meta = await input().metadata();
  } catch (err) {
    // sharp reads only the header here and refuses a pixel flood by its declared size.
    if (/pixel limit/i.test((err as Error).message)) throw tooLarge();
    throw new BadRequestError('The image could not be read. Please choose another file.', 'UNREADABLE_IMAGE');
  }
  if (!meta.width || !meta.height || meta.width * meta.height > IMAGE_MAX_INPUT_PIXELS) throw tooLarge();
  const keepPng = mime !== 'image/jpeg' && !!meta.hasAlpha;
  try {
    const pipeline = input()
      .rotate() // apply the EXIF orientation before the metadata is dropped
      .resize({ width: IMAGE_MAX_EDGE, height: IMAGE_MAX_EDGE, fit: 'inside', withoutEnlargement: true });
    const { data, info } = keepPng
      ? await pipeline.png({ compressionLevel: 6 }).toBuffer({ resolveWithObject: true })
      : await pipeline.flatten({ background: '#ffffff' }).jpeg({ quality: 85 }).toBuffer({ resolveWithObject: true });
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
    throw new BadRequestError('The image could not be read. Please choose another file.', 'UNREADABLE_IMAGE');
  }
}
