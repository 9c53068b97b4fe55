// The queue workers (outbox, file jobs) take a Fastify logger. Tests that drive a worker
// directly, with no app around it, give it this one: it says nothing, so the failures a test
// provokes on purpose do not fill the run's output with warnings.
import type { FastifyBaseLogger } from 'fastify';

const quiet = () => {};

export const silentLogger = {
  info: quiet,
  warn: quiet,
  error: quiet,
  debug: quiet,
  trace: quiet,
  fatal: quiet,
  child: () => silentLogger,
  level: 'silent',
  silent: quiet,
} as unknown as FastifyBaseLogger;
