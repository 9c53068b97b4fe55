import type { Readable } from 'node:stream';
import { PROFILE_IMAGE_SIZES, type ProfileImageSize } from '@rally/shared/catalog/registration';
import { envelope, messageEnvelope } from '@rally/shared/contracts/common';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { requireAuth } from '../../lib/authorize';
import { BadRequestError } from '../../lib/errors';
import type { FileStore } from '../../lib/file-store';
import { acceptUpload, type FileKind } from '../../lib/files';
import { FILE_PARTS, readMultipart } from '../../lib/multipart';
import { storedFileResponses } from '../../lib/openapi';
import { responses } from '../../lib/route-helpers';
import { processedWaiter } from '../file-jobs/await-processed';
import {
  deleteUserFile,
  listUserFiles,
  openFile,
  processedMeta,
  readProfileImage,
  readReceipt,
  resizedProfileImage,
  type StoredFile,
  saveUserFile,
} from './uploads.service';

const fileRecord = z.object({
  id: z.string(),
  kind: z.enum(['profile_image', 'payment_receipt']),
  mimeType: z.string(),
  sizeBytes: z.number().int(),
  width: z.number().int().nullable(),
  height: z.number().int().nullable(),
  originalName: z.string().nullable(),
  createdAt: z.string(),
});
const idParam = z.object({ id: z.uuid({ message: 'id must be a valid id' }) });
const sizeNames = Object.keys(PROFILE_IMAGE_SIZES) as [ProfileImageSize, ...ProfileImageSize[]];
const profileImageQuery = z.object({
  size: z.enum(sizeNames, { message: `size must be ${sizeNames.join(' or ')}` }).optional(),
  v: z.string().max(40).optional(),
});
const profileImageSizesText = `\`size\` gives a smaller square JPEG, never enlarged: ${sizeNames
  .map((name) => `\`${name}\` ${PROFILE_IMAGE_SIZES[name]} px`)
  .join(', ')}; without it, the picture as stored. \`v\` only versions the URL.`;

type FileRow = { mimeType: string; sha256: string; sizeBytes?: number };

/**
 * Sends stored bytes with a strong ETag (the content's hash) and the given caching. The
 * bytes are fetched only once a revalidation has been ruled out, and an object store's
 * are streamed through as they arrive.
 */
async function sendBlob(
  request: FastifyRequest,
  reply: FastifyReply,
  file: FileRow,
  cache: string,
  bytes: () => Promise<Readable | Buffer>,
) {
  const etag = `"${file.sha256}"`;
  reply.header('etag', etag).header('cache-control', cache).header('x-content-type-options', 'nosniff');
  if (request.headers['if-none-match'] === etag) return reply.code(304).send();
  // A receipt PDF opened in the browser must never run as a document of this origin.
  reply.header('content-security-policy', "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'; sandbox");
  // PDFs are downloaded (the console opens them from a link, never in a frame of its page);
  // images stay inline.
  if (file.mimeType === 'application/pdf') reply.header('content-disposition', 'attachment; filename="receipt.pdf"');
  const data = await bytes();
  if (!Buffer.isBuffer(data) && file.sizeBytes !== undefined) reply.header('content-length', file.sizeBytes);
  return reply.type(file.mimeType).send(data);
}

export async function uploadRoutes(app: FastifyInstance, opts: { db: Db; config: Config; fileStore: FileStore }) {
  const { db, config, fileStore } = opts;
  const bytesOf = (file: StoredFile) => () => openFile(db, fileStore, file);
  const r = app.withTypeProvider<ZodTypeProvider>();
  const rateLimit = config.rateLimits.enabled
    ? { max: config.rateLimits.uploadsPerAddressPerHour, timeWindow: 3_600_000 }
    : false;

  // A file asked for while the queue is processing it is waited for (pushed by the queue's
  // event), up to FILE_WAIT_MS; the original is never served.
  const awaitProcessed = processedWaiter(app.eventBus, () => app.fileJobs?.wake());

  const upload = (url: string, field: keyof typeof FILE_PARTS, kind: FileKind) =>
    r.post(url, {
      config: { access: 'authenticated', rateLimit, multipart: { files: { [field]: FILE_PARTS[field](true) } } },
      schema: {
        tags: ['uploads'],
        consumes: ['multipart/form-data'],
        description: `Multipart with one file field named ${field}; replaces the previous one.`,
        response: responses({ 201: envelope(z.object({ file: fileRecord })) }, 409),
      },
      handler: async (request, reply) => {
        const auth = requireAuth(request);
        const { files } = await readMultipart(request);
        const part = files[field];
        if (!part) throw new BadRequestError(`No file was sent in the ${field} field`, 'NO_FILE');
        const stored = await saveUserFile(
          db,
          fileStore,
          auth.userId,
          await acceptUpload(kind, part.buffer, part.filename),
        );
        // One file, not a rush: the answer describes the processed file when the queue is done
        // within the wait (it usually is, in a fraction of a second), the original otherwise.
        const saved = await processedMeta(db, stored, awaitProcessed);
        reply.code(201);
        return {
          success: true as const,
          message: kind === 'profile_image' ? 'Profile image uploaded' : 'Payment receipt uploaded',
          data: { file: { ...saved, createdAt: saved.createdAt.toISOString() } },
        };
      },
    });
  upload('/upload/profile-image', 'profileImage', 'profile_image');
  upload('/upload/payment-receipt', 'paymentReceipt', 'payment_receipt');

  const remove = (url: string, kind: FileKind) =>
    r.delete(url, {
      config: { access: 'authenticated' },
      schema: { tags: ['uploads'], params: idParam, response: responses({ 200: messageEnvelope }, 409) },
      handler: async (request) => {
        await deleteUserFile(db, fileStore, requireAuth(request).userId, kind, request.params.id);
        return { success: true as const, message: 'File deleted' };
      },
    });
  remove('/upload/profile-image/:id', 'profile_image');
  remove('/upload/payment-receipt/:id', 'payment_receipt');

  r.get('/upload/user-files', {
    config: { access: 'authenticated' },
    schema: { tags: ['uploads'], response: responses({ 200: envelope(z.object({ files: z.array(fileRecord) })) }) },
    handler: async (request) => {
      const rows = await listUserFiles(db, requireAuth(request).userId);
      return {
        success: true as const,
        data: { files: rows.map((f) => ({ ...f, createdAt: f.createdAt.toISOString() })) },
      };
    },
  });

  r.get('/upload/payment-receipt/:id', {
    config: { access: 'authenticated' },
    schema: {
      tags: ['uploads'],
      description: 'The receipt of a user (by user id or file id).',
      params: idParam,
      ...storedFileResponses(['image/jpeg', 'image/png', 'application/pdf']),
    },
    handler: async (request, reply) => {
      const file = await readReceipt(db, requireAuth(request), request.params.id, awaitProcessed);
      return sendBlob(request, reply, file, 'private, no-store', bytesOf(file));
    },
  });

  /** The picture as stored, or one of its smaller copies; a revalidation costs no resize. */
  const sendProfileImage = async (
    request: FastifyRequest,
    reply: FastifyReply,
    file: StoredFile,
    size: ProfileImageSize | undefined,
    cache: string,
  ) => {
    if (!size) return sendBlob(request, reply, file, cache, bytesOf(file));
    const copy = { mimeType: 'image/jpeg', sha256: `${file.sha256}-${size}` };
    return sendBlob(request, reply, copy, cache, () => resizedProfileImage(db, fileStore, file, size));
  };

  r.get('/upload/profile-image/:id', {
    config: { access: 'authenticated' },
    schema: {
      tags: ['uploads'],
      description: `A profile image (by user id or file id). ${profileImageSizesText}`,
      params: idParam,
      querystring: profileImageQuery,
      ...storedFileResponses(['image/jpeg', 'image/png']),
    },
    handler: async (request, reply) => {
      const file = await readProfileImage(db, request.params.id, false, request.auth, awaitProcessed);
      return sendProfileImage(request, reply, file, request.query.size, 'private, max-age=60');
    },
  });

  r.get('/public/profile-image/:id', {
    config: { access: 'public' },
    schema: {
      tags: ['uploads'],
      description: `The profile image of an active rider, for anyone (the scanner caches the thumb of each rider offline); 404 to all but the rider and staff when the rider withdrew the public_photo consent. ${profileImageSizesText}`,
      params: idParam,
      querystring: profileImageQuery,
      ...storedFileResponses(['image/jpeg', 'image/png']),
    },
    handler: async (request, reply) => {
      const file = await readProfileImage(db, request.params.id, true, request.auth, awaitProcessed);
      return sendProfileImage(request, reply, file, request.query.size, 'public, max-age=300, must-revalidate');
    },
  });
}
