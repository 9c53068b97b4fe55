import {
  ACTIVITY_PRIORITIES,
  CATEGORIES,
  GENDERS,
  PAYMENT_METHODS,
  ROLES,
  USER_STATUSES,
  VERIFICATION_STATUSES,
} from '@rally/shared/catalog';
import { pgEnum } from 'drizzle-orm/pg-core';

export const roleEnum = pgEnum('role', ROLES);
export const userStatusEnum = pgEnum('user_status', USER_STATUSES);
export const genderEnum = pgEnum('gender', GENDERS);
export const categoryEnum = pgEnum('category', CATEGORIES);
export const paymentMethodEnum = pgEnum('payment_method', PAYMENT_METHODS);
export const verificationStatusEnum = pgEnum('verification_status', VERIFICATION_STATUSES);
export const verificationActionEnum = pgEnum('verification_action', ['verified', 'rejected', 'undone']);
export const fileKindEnum = pgEnum('file_kind', ['profile_image', 'payment_receipt']);
export const activityPriorityEnum = pgEnum('activity_priority', ACTIVITY_PRIORITIES);
