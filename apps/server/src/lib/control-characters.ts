// One check for every route, present and future: a request whose params, query or JSON
// body holds a control character is refused with a 400 naming the field before any
// route code (or the database) sees it. Multipart text fields get the same check in
// readMultipart. See packages/shared/src/contracts/text.ts for the rule.
import { findControlCharacters } from '@rally/shared/contracts/text';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { BadRequestError } from './errors';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Top-level body fields (batches) whose items the route checks one by one itself. */
    textCheckPerItem?: readonly string[];
  }
}

export const CONTROL_CHARACTERS_CODE = 'CONTROL_CHARACTERS';

export function assertNoControlCharacters(value: unknown, skip?: readonly string[]): void {
  const problem = findControlCharacters(value, { skip });
  if (problem) throw new BadRequestError(problem, CONTROL_CHARACTERS_CODE);
}

export const controlCharactersPlugin = fp(async (app: FastifyInstance) => {
  app.addHook('preValidation', async (request) => {
    assertNoControlCharacters(request.params);
    assertNoControlCharacters(request.query);
    const body = request.body;
    if (body !== undefined && body !== null && !Buffer.isBuffer(body)) {
      assertNoControlCharacters(body, request.routeOptions.config?.textCheckPerItem);
    }
  });
});
