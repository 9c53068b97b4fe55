import { integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Request counts of the per-route rate limits (uploads, resets, the registrations per address
 * that decide when a challenge is asked), shared by every server instance on the database
 * (lib/rate-limit-store.ts). One row per route and client (account or address); a window
 * opens with its first request and the row is reused after it ends. A spent proof-of-work
 * challenge is a row too, held until the challenge expires (claimOnce).
 */
export const rateLimitHits = pgTable('rate_limit_hits', {
  key: text('key').primaryKey(),
  hits: integer('hits').notNull(),
  windowEnds: timestamp('window_ends', { withTimezone: true }).notNull(),
});
