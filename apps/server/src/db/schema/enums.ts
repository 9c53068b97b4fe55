import { GENDERS, ROLES, USER_STATUSES, VERIFICATION_STATUSES } from '@rally/shared/catalog/accounts';
import { ACTIVITY_PRIORITIES } from '@rally/shared/catalog/console';
import {
  COURSE_DECISIONS,
  DNF_REASONS,
  INCIDENT_KINDS,
  INCIDENT_SOURCES,
  INCIDENT_STATUSES,
  SCAN_FLAG_REASONS,
  SCAN_REVIEW_DECISIONS,
  SCAN_SOURCES,
  STATION_KINDS,
} from '@rally/shared/catalog/event-day';
import { MESSAGE_CHANNELS, MESSAGE_STATUSES } from '@rally/shared/catalog/messages';
import { CATEGORIES, PAYMENT_METHODS } from '@rally/shared/catalog/registration';
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
export const stationKindEnum = pgEnum('station_kind', STATION_KINDS);
export const scanSourceEnum = pgEnum('scan_source', SCAN_SOURCES);
// Only what is stored: `duplicate` and `invalid` are answers, never rows.
export const scanStatusEnum = pgEnum('scan_status', ['accepted', 'flagged']);
export const scanFlagReasonEnum = pgEnum('scan_flag_reason', SCAN_FLAG_REASONS);
export const scanReviewDecisionEnum = pgEnum('scan_review_decision', SCAN_REVIEW_DECISIONS);
export const incidentKindEnum = pgEnum('incident_kind', INCIDENT_KINDS);
export const incidentStatusEnum = pgEnum('incident_status', INCIDENT_STATUSES);
export const incidentSourceEnum = pgEnum('incident_source', INCIDENT_SOURCES);
export const courseDecisionEnum = pgEnum('course_decision', COURSE_DECISIONS);
export const dnfReasonEnum = pgEnum('dnf_reason', DNF_REASONS);

export const messageChannelEnum = pgEnum('message_channel', MESSAGE_CHANNELS);
export const messageStatusEnum = pgEnum('message_status', MESSAGE_STATUSES);
