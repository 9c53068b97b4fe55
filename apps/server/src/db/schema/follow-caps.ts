import { index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

/**
 * One row per follow confirmation sent, by the mailbox it reached (followers/mailbox.ts):
 * the hourly cap counts these, so every spelling of one inbox (plus-tags, Gmail's dots)
 * shares one allowance, whichever rider each confirmation named. The mailbox is kept as its
 * SHA-256 only, and rows older than the cap's hour are deleted as new ones come.
 */
export const followConfirmSends = pgTable(
  'follow_confirm_sends',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** SHA-256 (hex) of the normalised mailbox. */
    mailboxHash: text('mailbox_hash').notNull(),
    /** The app's clock when it was sent (tests move it). */
    sentAt: timestamp('sent_at', { withTimezone: true }).notNull(),
  },
  (t) => [
    index('follow_confirm_sends_mailbox_idx').on(t.mailboxHash, t.sentAt),
    index('follow_confirm_sends_sent_idx').on(t.sentAt),
  ],
);
