import { sql } from 'drizzle-orm';
import { date, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { genderEnum, roleEnum, userStatusEnum } from './enums';

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    kitName: text('kit_name'),
    phoneNumber: text('phone_number'),
    address: text('address'),
    gender: genderEnum('gender'),
    birthdate: date('birthdate', { mode: 'string' }),
    role: roleEnum('role').notNull().default('participant'),
    status: userStatusEnum('status').notNull().default('active'),
    motorcycleModel: text('motorcycle_model'),
    clubName: text('club_name'),
    emergencyContactName: text('emergency_contact_name'),
    emergencyContactNumber: text('emergency_contact_number'),
    bloodType: text('blood_type'),
    allergies: text('allergies'),
    medicalConditions: text('medical_conditions'),
    lastLogin: timestamp('last_login', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    // Emails are unique case-insensitively; lookups go through lower(email).
    uniqueIndex('users_email_lower_uq').on(sql`lower(${t.email})`),
    index('users_role_idx').on(t.role),
    index('users_created_at_idx').on(t.createdAt),
  ],
);
export type UserRow = typeof users.$inferSelect;
