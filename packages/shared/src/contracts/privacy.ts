// Consent on record (DESIGN.md §12): the versioned privacy notice and terms, what a rider
// accepted and when, and the optional purposes they give or withdraw in My Profile.
import { z } from 'zod';
import { CONSENT_PURPOSES, CONSENT_SCREENS } from '../catalog/privacy';
import { envelope } from './common';

export const consentPurpose = z.enum(CONSENT_PURPOSES, {
  message: `purpose must be one of ${CONSENT_PURPOSES.join(', ')}`,
});
export const consentScreen = z.enum(CONSENT_SCREENS);

/**
 * The notice version a registration, "Join" or a sign-in accepted: a number, as text too
 * (a multipart registration sends every field as text).
 */
export const consentVersionField = z.coerce
  .number({ message: 'consentVersion must be the version number of the privacy notice' })
  .int({ message: 'consentVersion must be the version number of the privacy notice' })
  .min(1, { message: 'consentVersion must be the version number of the privacy notice' })
  .max(1_000_000, { message: 'consentVersion must be the version number of the privacy notice' });

/** One of the two texts, as of the publication that last changed it. */
export const noticeText = z.object({
  version: z.number().int(),
  publishedAt: z.string(),
  /** Markdown. */
  text: z.string(),
});

/** GET /api/privacy/notice (public; `?version=N` for an earlier one). */
export const privacyNotice = z.object({
  /** What `consentVersion` names: every publication is a new version. */
  version: z.number().int(),
  publishedAt: z.string(),
  privacy: noticeText,
  terms: noticeText,
});
export type PrivacyNotice = z.infer<typeof privacyNotice>;
export const privacyNoticeResponse = envelope(privacyNotice);
export const privacyNoticeQuery = z.object({
  version: consentVersionField.optional(),
});

/** PUT /api/admin/privacy/notice (manage_event): publishes both texts as the next version. */
export const putPrivacyNoticeRequest = z.object({
  privacyText: z
    .string({ message: 'privacyText is required' })
    .trim()
    .min(20, { message: 'The privacy notice must be at least 20 characters' })
    .max(50_000, { message: 'The privacy notice must be at most 50,000 characters' }),
  termsText: z
    .string({ message: 'termsText is required' })
    .trim()
    .min(20, { message: 'The terms must be at least 20 characters' })
    .max(50_000, { message: 'The terms must be at most 50,000 characters' }),
});
export type PutPrivacyNoticeRequest = z.infer<typeof putPrivacyNoticeRequest>;

/** One consent row: given or withdrawn, of the notice or an optional purpose. */
export const consentRecord = z.object({
  purpose: z.union([z.literal('notice'), consentPurpose]),
  given: z.boolean(),
  version: z.string().nullable(),
  screen: consentScreen,
  at: z.string(),
});
export type ConsentRecord = z.infer<typeof consentRecord>;

/** GET /api/my/consents: the notice accepted, each purpose now, and the whole history. */
export const myConsents = z.object({
  notice: z.object({
    currentVersion: z.number().int(),
    /** The version accepted last, when and where; null: never. */
    accepted: z.object({ version: z.number().int(), at: z.string(), screen: consentScreen }).nullable(),
    /** True: the rider is asked before anything else (never accepted, or a newer version). */
    needed: z.boolean(),
  }),
  purposes: z.array(
    z.object({
      purpose: consentPurpose,
      /** In effect now: the rider's choice, else the rally's default (CONSENT_DEFAULTS). */
      given: z.boolean(),
      /** Whether the rider chose (false: the default applies). */
      chosen: z.boolean(),
      at: z.string().nullable(),
      screen: consentScreen.nullable(),
    }),
  ),
  /** Newest first. */
  history: z.array(consentRecord),
});
export type MyConsents = z.infer<typeof myConsents>;
export const myConsentsResponse = envelope(myConsents);

/** PUT /api/my/consents/notice: accepting the current notice (the sign-in re-ask). */
export const acceptNoticeRequest = z.object({ version: consentVersionField });

/**
 * PUT /api/my/consents/{purpose}: give or withdraw, effective at once. Giving `tracking`
 * names the tracking consent's version read (as PUT /api/my/tracking does).
 */
export const putConsentRequest = z.object({
  given: z.boolean({ message: 'given must be true or false' }),
  version: z.string().trim().min(1).max(40).optional(),
});
export const consentPurposeParam = z.object({ purpose: consentPurpose });
