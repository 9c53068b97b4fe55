import { sql } from 'drizzle-orm';
import { check, index, pgTable, primaryKey, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './users';

/** One fire per giver and receiver, never to oneself. */
export const fires = pgTable(
  'fires',
  {
    giverId: uuid('giver_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    receiverId: uuid('receiver_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.giverId, t.receiverId] }),
    index('fires_receiver_idx').on(t.receiverId),
    check('fires_not_self', sql`${t.giverId} <> ${t.receiverId}`),
  ],
);

export const comments = pgTable(
  'comments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    authorId: uuid('author_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    targetUserId: uuid('target_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    text: text('text').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('comments_target_idx').on(t.targetUserId, t.createdAt),
    index('comments_author_idx').on(t.authorId, t.createdAt),
    check('comments_not_self', sql`${t.authorId} <> ${t.targetUserId}`),
  ],
);
