import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { ClientInfo } from './client-address';
import { BadRequestError } from './errors';
import { type ErrorStatus, errorResponse } from './openapi';

/**
 * A route's response schemas: its success answers, plus the error statuses its service
 * raises beyond those its access and inputs imply (lib/openapi.ts adds those to every
 * route). Each error status answers the envelope `{ success: false, message, code? }`.
 */
export function responses<T extends Record<number, z.ZodType>>(ok: T, ...errors: ErrorStatus[]) {
  const declared: Record<number, z.ZodType> = { ...ok };
  for (const status of errors) declared[status] = errorResponse(status);
  return declared as T;
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
