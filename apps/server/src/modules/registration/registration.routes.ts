import { authResponse, registrationPayload, registrationSchema } from '@rally/shared/contracts/auth';
import { CHALLENGE_HEADER, challengeResponse, registrationCheckResponse } from '@rally/shared/contracts/challenge';
import { errorEnvelope } from '@rally/shared/contracts/common';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { clientAddressKey } from '../../lib/client-address';
import { AppError } from '../../lib/errors';
import type { FileStore } from '../../lib/file-store';
import { acceptUpload, type PendingUpload } from '../../lib/files';
import { FILE_PARTS, readMultipart } from '../../lib/multipart';
import { openProofOfWork } from '../../lib/proof-of-work';
import { clientInfo, parseBody, responses } from '../../lib/route-helpers';
import { grantPageCookies } from '../../lib/session-cookie';
import { loadUserRecord } from '../auth/user-record.presenter';
import { admitRegistration, needsChallenge, register } from './registration.service';

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
  const pow = openProofOfWork(db, config);
  // No refusal per address here (issue 26): past RATE_LIMIT_REGISTRATIONS in the hour a
  // registration must carry a solved challenge instead. Runs before any upload is read. The
  // general per-minute ceiling (per address for these calls without a session) does not
  // apply to the registration calls: a club's rush sends more of them from one address than
  // it allows, and the challenge is what makes registering in bulk cost the sender; a flood
  // of requests is the reverse proxy's (docs/deploy.md).
  const admit = async (request: FastifyRequest) => {
    if (!config.rateLimits.enabled) return;
    const solved = request.headers[CHALLENGE_HEADER];
    await admitRegistration(db, pow, {
      address: clientAddressKey(request.ip),
      threshold: config.rateLimits.registrationsPerAddressPerHour,
      solved: typeof solved === 'string' && solved !== '' ? solved : undefined,
    });
  };
  const CHALLENGE_NOTE = ` Past RATE_LIMIT_REGISTRATIONS registrations from one address in an hour (30 by default), each must carry a solved challenge of GET /api/auth/registration-challenge in the \`${CHALLENGE_HEADER}\` header (ALTCHA's payload: base64 JSON of the challenge and its solution); without one the answer is 403 CHALLENGE_REQUIRED, and a bad, expired or already used one is 400 CHALLENGE_INVALID, CHALLENGE_EXPIRED or CHALLENGE_USED.`;

  const CONSENT_NOTE =
    ' `consentVersion` (optional): the privacy notice version the rider accepted (GET /api/privacy/notice), recorded with the account; a version that is not the current one is 409 CONSENT_REQUIRED, naming it, and nothing is created. Without it nothing is recorded and the rider is asked at sign-in.';

  const challengeAsked = errorEnvelope.describe(
    `A security check is asked (code CHALLENGE_REQUIRED): send again with a solved challenge in ${CHALLENGE_HEADER}`,
  );

  r.get('/auth/registration-challenge', {
    config: { access: 'public', rateLimit: false },
    schema: {
      tags: ['auth'],
      description:
        "A proof-of-work challenge (ALTCHA v2, PBKDF2/SHA-256) for a registration, signed by the server and good for 10 minutes and one registration. Solve it by trying counters from 0 until the derived key starts with keyPrefix (altcha-lib's solveChallenge).",
      response: responses({ 200: challengeResponse }),
    },
    handler: async (_request, reply) => {
      // Each one is new: a cached challenge would be one challenge for many riders.
      reply.header('cache-control', 'no-store');
      return { success: true as const, data: await pow.issue() };
    },
  });

  r.get('/auth/registration-check', {
    config: { access: 'public', rateLimit: false },
    schema: {
      tags: ['auth'],
      description:
        'Whether the next registration from this address must carry a solved challenge (past RATE_LIMIT_REGISTRATIONS in the hour). The form asks before it uploads anything, so its files are sent once. Asking counts as no registration.',
      response: responses({ 200: registrationCheckResponse }),
    },
    handler: async (request, reply) => {
      reply.header('cache-control', 'no-store');
      const challengeRequired =
        config.rateLimits.enabled &&
        (await needsChallenge(db, {
          address: clientAddressKey(request.ip),
          threshold: config.rateLimits.registrationsPerAddressPerHour,
        }));
      return { success: true as const, data: { challengeRequired } };
    },
  });

  r.post('/auth/register', {
    config: { access: 'public', rateLimit: false },
    preValidation: admit,
    schema: {
      tags: ['auth'],
      description: `Registers without files (JSON). Fields as in the multipart route; a receipt can be uploaded afterwards.${CHALLENGE_NOTE}${CONSENT_NOTE}`,
      body: registrationPayload(),
      // 409: the email or the rider number is taken, or the edition's registration is closed (REGISTRATION_CLOSED); 403: a challenge is asked.
      response: responses({ 201: authResponse, 403: challengeAsked }, 409),
    },
    handler: async (request, reply) => {
      const result = await register(
        db,
        request.body,
        async () => [],
        clientInfo(request),
        whenClientGone(reply),
        undefined,
        app.messenger,
        app.clock.now(),
      );
      return registered(db, request, reply, result);
    },
  });

  r.post('/auth/register-with-uploads', {
    config: {
      access: 'public',
      rateLimit: false,
      multipart: {
        fields: registrationSchema,
        files: { profileImage: FILE_PARTS.profileImage(false), paymentReceipt: FILE_PARTS.paymentReceipt(false) },
      },
    },
    preValidation: admit,
    schema: {
      tags: ['auth'],
      consumes: ['multipart/form-data'],
      description: `Registers with a profile image (profileImage) and, for non-cash payments, a receipt (paymentReceipt: required unless paymentMethod is cash). Every field of the registration payload is a text part.${CHALLENGE_NOTE}${CONSENT_NOTE}`,
      response: responses({ 201: authResponse, 403: challengeAsked }, 409),
    },
    handler: async (request, reply) => {
      const { fields, files } = await readMultipart(request);
      // Validated here, once: the registration checks in their fixed order, then the formats.
      const input = parseBody(registrationPayload(!!files.paymentReceipt), fields);
      // Only the cheap checks (type by magic bytes, image header, completeness), once the
      // number and email are known to be free; the images are kept as sent and processed
      // by the file queue after the registration commits.
      const inspect = async () => {
        const pending: PendingUpload[] = [];
        const { profileImage, paymentReceipt } = files;
        for (const [kind, part] of [
          ['profile_image', profileImage],
          ['payment_receipt', paymentReceipt],
        ] as const) {
          if (!part) continue;
          const accepted = await acceptUpload(kind, part.buffer, part.filename);
          pending.push(async () => accepted);
        }
        return pending;
      };
      const result = await register(
        db,
        input,
        inspect,
        clientInfo(request),
        whenClientGone(reply),
        fileStore,
        app.messenger,
        app.clock.now(),
      );
      return registered(db, request, reply, result);
    },
  });
}

/**
 * The 201 of both registration routes: the new session's token and the rider's own record,
 * and the cookie that lets the server draw their page once they are verified.
 */
async function registered(
  db: Db,
  request: FastifyRequest,
  reply: FastifyReply,
  result: { token: string; userId: string },
) {
  reply.code(201);
  const user = await loadUserRecord(db, result.userId);
  await grantPageCookies(db, request, reply, { token: result.token, role: user.role });
  return { success: true as const, message: REGISTERED, token: result.token, data: { user } };
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
