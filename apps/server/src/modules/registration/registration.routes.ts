import { authResponse, registrationPayload, registrationSchema } from '@rally/shared/contracts/auth';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { AppError } from '../../lib/errors';
import type { FileStore } from '../../lib/file-store';
import { inspectUpload, type PendingUpload } from '../../lib/files';
import { FILE_PARTS, readMultipart } from '../../lib/multipart';
import { clientInfo, parseBody, responses } from '../../lib/route-helpers';
import { loadUserRecord } from '../auth/user-record.presenter';
import { register } from './registration.service';

/** Nobody reads this answer: the client has gone. 499 is nginx's "client closed request". */
class ClientGoneError extends AppError {
  constructor() {
    super(499, 'The request was cancelled by the client', 'CLIENT_CLOSED_REQUEST');
  }
}

const REGISTERED = 'Welcome to the tribe, warrior! Your registration is pending verification.';

export async function registrationRoutes(app: FastifyInstance, opts: { db: Db; config: Config; fileStore: FileStore }) {
  const { db, config, fileStore } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const rateLimit = config.rateLimits.enabled
    ? { max: config.rateLimits.registrationsPerAddressPerHour, timeWindow: 3_600_000 }
    : false;

  r.post('/auth/register', {
    config: { access: 'public', rateLimit },
    schema: {
      tags: ['auth'],
      description:
        'Registers without files (JSON). Fields as in the multipart route; a receipt can be uploaded afterwards.',
      body: registrationPayload(),
      // 409: the email or the rider number is taken, as on the multipart route.
      response: responses({ 201: authResponse }, 409),
    },
    handler: async (request, reply) => {
      const result = await register(db, request.body, async () => [], clientInfo(request), whenClientGone(reply));
      return registered(db, reply, result);
    },
  });

  r.post('/auth/register-with-uploads', {
    config: {
      access: 'public',
      rateLimit,
      multipart: {
        fields: registrationSchema,
        files: { profileImage: FILE_PARTS.profileImage(false), paymentReceipt: FILE_PARTS.paymentReceipt(false) },
      },
    },
    schema: {
      tags: ['auth'],
      consumes: ['multipart/form-data'],
      description:
        'Registers with a profile image (profileImage) and, for non-cash payments, a receipt (paymentReceipt: required unless paymentMethod is cash). Every field of the registration payload is a text part.',
      response: responses({ 201: authResponse }, 409),
    },
    handler: async (request, reply) => {
      const { fields, files } = await readMultipart(request);
      // Validated here, once: the registration checks in their fixed order, then the formats.
      const input = parseBody(registrationPayload(!!files.paymentReceipt), fields);
      // Only the cheap checks here (type by magic bytes, image header); the re-encoding
      // runs once the number and email are known to be free.
      const inspect = async () => {
        const pending: PendingUpload[] = [];
        const { profileImage, paymentReceipt } = files;
        if (profileImage)
          pending.push(await inspectUpload('profile_image', profileImage.buffer, profileImage.filename));
        if (paymentReceipt)
          pending.push(await inspectUpload('payment_receipt', paymentReceipt.buffer, paymentReceipt.filename));
        return pending;
      };
      const result = await register(db, input, inspect, clientInfo(request), whenClientGone(reply), fileStore);
      return registered(db, reply, result);
    },
  });
}

/** The 201 of both registration routes: the new session's token and the rider's own record. */
async function registered(db: Db, reply: FastifyReply, result: { token: string; userId: string }) {
  reply.code(201);
  return {
    success: true as const,
    message: REGISTERED,
    token: result.token,
    data: { user: await loadUserRecord(db, result.userId) },
  };
}

/**
 * Aborts when the client disconnects before its answer is sent, so a registration still
 * waiting behind another claim of the same number is dropped instead of done for no one.
 */
function whenClientGone(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  const res = reply.raw;
  const onClose = () => {
    if (!res.writableFinished) controller.abort(new ClientGoneError());
  };
  res.once('close', onClose);
  return controller.signal;
}
