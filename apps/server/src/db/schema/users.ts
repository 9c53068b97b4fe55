import { RIDER_NUMBER_MAX, RIDER_NUMBER_MIN } from '@rally/shared/catalog/rider-number';
import { sql } from 'drizzle-orm';
import { check, date, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { categoryEnum, genderEnum, paymentMethodEnum, roleEnum, userStatusEnum } from './enums';

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
    category: categoryEnum('category'),
    emergencyContactName: text('emergency_contact_name'),
    emergencyContactNumber: text('emergency_contact_number'),
    riderNumber: integer('rider_number'),
    riderCode: text('rider_code'),
    paymentMethod: paymentMethodEnum('payment_method'),
    paymentAmount: integer('payment_amount'),
    tshirtSize: text('tshirt_size'),
    customTshirtSize: text('custom_tshirt_size'),
    tshirtSubmittedAt: timestamp('tshirt_submitted_at', { withTimezone: true }),
    finisherSleeveSize: text('finisher_sleeve_size'),
    customFinisherSleeveSize: text('custom_finisher_sleeve_size'),
    vestSize: text('vest_size'),
    customVestSize: text('custom_vest_size'),
    gearSubmittedAt: timestamp('gear_submitted_at', { withTimezone: true }),
    bikeCheckStatus: text('bike_check_status').notNull().default('Not Started'),
    riderKitStatus: text('rider_kit_status').notNull().default('Preparing'),
    checkpoints: integer('checkpoints').notNull().default(0),
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
    uniqueIndex('users_rider_number_uq').on(t.riderNumber),
    uniqueIndex('users_rider_code_uq').on(t.riderCode),
    index('users_role_idx').on(t.role),
    index('users_created_at_idx').on(t.createdAt),
    // The shared range, written into the SQL as literals (the migration holds `between 1 and 1000`).
    check(
      'users_rider_number_range',
      sql`${t.riderNumber} is null or (${t.riderNumber} between ${sql.raw(String(RIDER_NUMBER_MIN))} and ${sql.raw(String(RIDER_NUMBER_MAX))})`,
    ),
  ],
);
export type UserRow = typeof users.$inferSelect;
