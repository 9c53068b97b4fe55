import { integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Request counts of the per-route rate limits (registrations, uploads, resets), shared by
 * every server instance on the database (lib/rate-limit-store.ts). One row per route and
 * client address; a window opens with its first request and the row is reused after it ends.
 */
export const rateLimitHits = pgTable('rate_limit_hits', {
  key: text('key').primaryKey(),
  hits: integer('hits').notNull(),
  windowEnds: timestamp('window_ends', { withTimezone: true }).notNull(),
});
