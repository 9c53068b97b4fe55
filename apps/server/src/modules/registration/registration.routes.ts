import { authResponse } from '@rally/shared/contracts/auth';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { processUpload } from '../../lib/files';
import { readMultipart } from '../../lib/multipart';
import { clientInfo, responses } from '../../lib/route-helpers';
import { loadUserRecord } from '../auth/user-record.presenter';
import { register, validateRegistration } from './registration.service';

const REGISTERED = 'Welcome to the tribe, warrior! Your registration is pending verification.';

export async function registrationRoutes(app: FastifyInstance, opts: { db: Db; config: Config }) {
  const { db, config } = opts;
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
      body: z.record(z.string(), z.unknown()),
      response: responses({ 201: authResponse }),
    },
    handler: async (request, reply) => {
      const input = validateRegistration(request.body, undefined);
      const result = await register(db, input, async () => [], clientInfo(request));
      reply.code(201);
      return {
        success: true as const,
        message: REGISTERED,
        token: result.token,
        data: { user: await loadUserRecord(db, result.userId) },
      };
    },
  });

  r.post('/auth/register-with-uploads', {
    config: { access: 'public', rateLimit },
    schema: {
      tags: ['auth'],
      consumes: ['multipart/form-data'],
      description:
        'Registers with a profile image (profileImage) and, for non-cash payments, a receipt (paymentReceipt). Every field of the registration payload is a text part.',
      response: responses({ 201: authResponse }),
    },
    handler: async (request, reply) => {
      const { fields, files } = await readMultipart(request, ['profileImage', 'paymentReceipt']);
      const input = validateRegistration(fields, !!files.paymentReceipt);
      const prepare = async () => {
        const uploads = [];
        const { profileImage, paymentReceipt } = files;
        if (profileImage)
          uploads.push(await processUpload('profile_image', profileImage.buffer, profileImage.filename));
        if (paymentReceipt)
          uploads.push(await processUpload('payment_receipt', paymentReceipt.buffer, paymentReceipt.filename));
        return uploads;
      };
      const result = await register(db, input, prepare, clientInfo(request));
      reply.code(201);
      return {
        success: true as const,
        message: REGISTERED,
        token: result.token,
        data: { user: await loadUserRecord(db, result.userId) },
      };
    },
  });
}
