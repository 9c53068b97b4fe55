// Public rider profiles (/user/{userId}), fire and support comments. The public profile lists only fields
// anyone may see: no contact, address, birthdate, emergency, payment or code fields.
import { z } from 'zod';
import { ROLES, VERIFICATION_STATUSES } from '../catalog/accounts';
import { COMMENTS_PAGE_SIZE } from '../catalog/web-client';
import { envelope } from './common';
import { profileEdition } from './editions';

export const COMMENTS_MAX_LIMIT = 100;

export const SELF_FIRE_MESSAGE = "You can't give fire to yourself! 🤔";
export const SELF_COMMENT_MESSAGE = 'You cannot comment on your own profile';
export const DOUBLE_FIRE_MESSAGE = 'You already gave fire to this warrior! 🔥';
export const USER_NOT_FOUND_MESSAGE = 'User not found';
export const BLANK_COMMENT_MESSAGE = 'Comment cannot be empty';

const nullableString = z.string().nullable();

export const publicProfile = z.object({
  id: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  kitName: nullableString,
  role: z.enum(ROLES),
  riderNumber: z.number().int().nullable(),
  category: nullableString,
  /** Only to show a man's lakambini entry as magani. */
  gender: nullableString,
  bikeInfo: z.object({ model: nullableString, category: nullableString }),
  verificationStatus: z.enum(VERIFICATION_STATUSES).nullable(),
  hasProfileImage: z.boolean(),
  stats: z.object({ fires: z.number().int(), comments: z.number().int() }),
  createdAt: z.string(),
  /** Event day: the last station the rider passed, or null before any. */
  // Optional in the type so pages built before event day (and demo data) still type-check.
  lastStation: z.object({ name: z.string(), at: z.string() }).nullable().optional(),
  /** Finished the rally: a finish with every required station passed (the course module's mark). */
  finisher: z.boolean().optional(),
  /**
   * The past editions the rider's entry was verified in, newest first, with how each ended
   * (DESIGN.md §9); absent while there are none. The current edition is the profile's own
   * riderNumber, category and finisher.
   */
  editions: z.array(profileEdition).optional(),
});
export type PublicProfile = z.infer<typeof publicProfile>;
export const publicProfileResponse = envelope(publicProfile);

export const fireState = z.object({ hasGivenFire: z.boolean(), totalFires: z.number().int() });
export type FireState = z.infer<typeof fireState>;
export const fireResponse = envelope(fireState);

/** Ids arrive as text; anything that is not a user id simply finds no user (404). */
export const userIdParam = z.object({ id: z.string() });

export const commentBody = z.object(
  {
    comment: z
      .string({ message: BLANK_COMMENT_MESSAGE })
      .trim()
      // Comments have no length limit; the request body limit (1 MB) is the only bound.
      .min(1, { message: BLANK_COMMENT_MESSAGE }),
  },
  { message: BLANK_COMMENT_MESSAGE },
);
export type CommentBody = z.infer<typeof commentBody>;

export const comment = z.object({
  id: z.string(),
  authorId: z.string(),
  /** Kit name, else full name. */
  author: z.string(),
  /** The author's role. */
  authorRank: z.enum(ROLES),
  text: z.string(),
  timestamp: z.string(),
});
export type Comment = z.infer<typeof comment>;
export const commentResponse = envelope(comment);

/** A query-string whole number in [min, max]; a bad value is refused with a message naming the field. */
function boundedInt(field: string, min: number, max: number, fallback: number) {
  const message = `${field} must be a whole number from ${min} to ${max}`;
  return z.coerce.number({ message }).int({ message }).min(min, { message }).max(max, { message }).default(fallback);
}

export const commentsQuery = z.object({
  limit: boundedInt('limit', 1, COMMENTS_MAX_LIMIT, COMMENTS_PAGE_SIZE),
  offset: boundedInt('offset', 0, 1_000_000, 0),
});

export const commentList = z.object({
  comments: z.array(comment),
  total: z.number().int(),
  limit: z.number().int(),
  offset: z.number().int(),
});
export type CommentList = z.infer<typeof commentList>;
export const commentListResponse = envelope(commentList);

export const myComment = z.object({
  id: z.string(),
  commentedOnUser: z.string(),
  commentedOnUserKitName: nullableString,
  commentedOnUserRank: z.enum(ROLES),
  commentedOnUserId: z.string(),
  text: z.string(),
  timestamp: z.string(),
});
export type MyComment = z.infer<typeof myComment>;

export const myCommentList = z.object({
  comments: z.array(myComment),
  total: z.number().int(),
  limit: z.number().int(),
  offset: z.number().int(),
});
export type MyCommentList = z.infer<typeof myCommentList>;
export const myCommentListResponse = envelope(myCommentList);
