import { index, jsonb, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { activityPriorityEnum } from './enums';
import { users } from './users';

/** The activity feed and system log. Names are snapshots so entries survive a deleted user. */
export const activities = pgTable(
  'activities',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    type: text('type').notNull(),
    priority: activityPriorityEnum('priority').notNull().default('normal'),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    userName: text('user_name'),
    actorId: uuid('actor_id').references(() => users.id, { onDelete: 'set null' }),
    actorName: text('actor_name'),
    description: text('description').notNull(),
    details: text('details'),
    location: text('location'),
    metadata: jsonb('metadata'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('activities_created_idx').on(t.createdAt), index('activities_type_idx').on(t.type, t.createdAt)],
);
