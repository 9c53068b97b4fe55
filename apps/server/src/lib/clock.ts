// The time the event-day reads run at (overdue riders, missed cutoffs). Routes ask
// `app.clock.now()`; tests replace `now` to move the event forward without sleeping.
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';

export interface Clock {
  now(): Date;
}

declare module 'fastify' {
  interface FastifyInstance {
    clock: Clock;
  }
}

export const clockPlugin = fp(async (app: FastifyInstance) => {
  app.decorate('clock', { now: () => new Date() } satisfies Clock);
});
