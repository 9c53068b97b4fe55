import { integer, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Failed-login counts shared by every server instance (lib/login-throttle.ts). One row
 * per key: an account (`account:` + SHA-256 of the email, so no address book lives
 * here), an address (`address:` + IP) or an account on one address (`pair:` + both).
 * A window opens at the first failure and lasts RATE_LIMIT_LOGIN_WINDOW_MS; refused
 * attempts never touch it.
 */
export const loginThrottle = pgTable('login_throttle', {
  key: text('key').primaryKey(),
  failures: integer('failures').notNull(),
  windowStart: timestamp('window_start', { withTimezone: true }).notNull(),
});
