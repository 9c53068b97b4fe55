import { errorEnvelope } from '@rally/shared/contracts/common';
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { ClientInfo } from '../modules/auth/auth.service';
import { BadRequestError } from './errors';

/** Adds the error envelope under every error status a route may answer, for the docs and the serializer. */
export function responses<T extends Record<number, z.ZodType>>(ok: T) {
  return {
    ...ok,
    400: errorEnvelope,
    401: errorEnvelope,
    403: errorEnvelope,
    404: errorEnvelope,
    409: errorEnvelope,
    413: errorEnvelope,
    415: errorEnvelope,
    429: errorEnvelope,
  };
}

export function clientInfo(request: FastifyRequest): ClientInfo {
  const agent = request.headers['user-agent'];
  return { ip: request.ip ?? null, userAgent: typeof agent === 'string' ? agent : null };
}

/**
 * Validates a body Fastify could not (a multipart payload's text fields) against its
 * shared contract, answering the first problem as a 400 like a schema failure would.
 */
export function parseBody<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new BadRequestError(parsed.error.issues[0]?.message ?? 'request is invalid', 'VALIDATION');
  return parsed.data;
}
