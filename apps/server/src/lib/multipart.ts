import { MAX_UPLOAD_BYTES, UPLOAD_TOO_LARGE_MESSAGE } from '@rally/shared/catalog/registration';
import { controlCharacterProblem, MULTILINE_FIELDS } from '@rally/shared/contracts/text';
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import { CONTROL_CHARACTERS_CODE } from './control-characters';
import { AppError, BadRequestError, PayloadTooLargeError, UnsupportedMediaTypeError } from './errors';

export interface UploadedPart {
  buffer: Buffer;
  filename: string;
}

export interface MultipartResult {
  fields: Record<string, string>;
  files: Record<string, UploadedPart>;
}

/** What the server accepts in one file part (checked by magic bytes, not by the declared type). */
export interface FilePartRule {
  mediaTypes: readonly string[];
  maxBytes: number;
  required: boolean;
  description: string;
}

/**
 * A multipart route's body, declared once in its `config.multipart`: `readMultipart`
 * accepts exactly these file parts, and the OpenAPI document describes the same text
 * fields and binary parts (lib/openapi.ts).
 */
export interface MultipartSpec {
  /** The text parts, as the zod schema the service validates them with. */
  fields?: z.ZodType;
  files: Record<string, FilePartRule>;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    multipart?: MultipartSpec;
  }
}

const IMAGE_MEDIA_TYPES = ['image/jpeg', 'image/png', 'image/gif'] as const;

/** The upload kinds as lib/files.ts accepts them: images are re-encoded, receipts may also be PDFs. */
export const FILE_PARTS = {
  profileImage: (required: boolean): FilePartRule => ({
    mediaTypes: IMAGE_MEDIA_TYPES,
    maxBytes: MAX_UPLOAD_BYTES,
    required,
    description: 'A JPEG, PNG or GIF photo of at most 10 MB; stored re-encoded without metadata.',
  }),
  paymentReceipt: (required: boolean): FilePartRule => ({
    mediaTypes: [...IMAGE_MEDIA_TYPES, 'application/pdf'],
    maxBytes: MAX_UPLOAD_BYTES,
    required,
    description: 'A JPEG, PNG or GIF image or a PDF of at most 10 MB.',
  }),
};

/**
 * Reads a whole multipart body into memory, refusing file fields the route does not
 * declare in `config.multipart`, repeated fields and files over 10 MB. Nothing is
 * written anywhere until the caller has validated everything, so a refused request
 * changes nothing.
 */
export async function readMultipart(request: FastifyRequest): Promise<MultipartResult> {
  const spec = request.routeOptions.config.multipart;
  if (!spec) throw new Error(`${request.routeOptions.url} reads a multipart body but declares no config.multipart`);
  const fileFields = Object.keys(spec.files);
  if (!request.isMultipart()) {
    throw new UnsupportedMediaTypeError('Expected a multipart/form-data upload', 'NOT_MULTIPART');
  }
  const fields: Record<string, string> = {};
  const files: Record<string, UploadedPart> = {};
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        if (!fileFields.includes(part.fieldname)) {
          await part.toBuffer().catch(() => undefined);
          throw new BadRequestError(`Unexpected file field: ${part.fieldname.slice(0, 50)}`, 'UNEXPECTED_FILE');
        }
        if (files[part.fieldname])
          throw new BadRequestError(`Only one ${part.fieldname} may be sent`, 'DUPLICATE_FIELD');
        const buffer = await part.toBuffer();
        files[part.fieldname] = { buffer, filename: part.filename };
      } else {
        if (part.fieldname in fields) {
          throw new BadRequestError(`Field ${part.fieldname.slice(0, 50)} was sent more than once`, 'DUPLICATE_FIELD');
        }
        if (typeof part.value !== 'string')
          throw new BadRequestError(`Field ${part.fieldname.slice(0, 50)} must be text`);
        // The same rule the central hook applies to JSON bodies (lib/control-characters.ts).
        const problem = controlCharacterProblem(
          part.fieldname.slice(0, 50),
          part.value,
          MULTILINE_FIELDS.has(part.fieldname),
        );
        if (problem) throw new BadRequestError(problem, CONTROL_CHARACTERS_CODE);
        fields[part.fieldname] = part.value;
      }
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    const code = (err as { code?: string }).code;
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw new PayloadTooLargeError(UPLOAD_TOO_LARGE_MESSAGE, 'FILE_TOO_LARGE');
    if (code === 'FST_FILES_LIMIT' || code === 'FST_PARTS_LIMIT' || code === 'FST_FIELDS_LIMIT') {
      throw new PayloadTooLargeError('Too many fields or files in the upload', 'TOO_MANY_PARTS');
    }
    throw new BadRequestError('The upload could not be read. Please try again.', 'BAD_MULTIPART');
  }
  return { fields, files };
}

export const MULTIPART_LIMITS = {
  fileSize: MAX_UPLOAD_BYTES,
  files: 2,
  fields: 40,
  fieldSize: 16 * 1024,
  parts: 45,
  headerPairs: 50,
} as const;
