import type { FastifyRequest } from 'fastify';
import type { z } from 'zod';
import type { ClientInfo } from '../modules/auth/auth.service';
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
