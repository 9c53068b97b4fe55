import { errorEnvelope } from '@rally/shared/contracts/common';
import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { ClientInfo } from '../modules/auth/auth.service';

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
