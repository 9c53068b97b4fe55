import type { Role, VerificationStatus } from '@rally/shared/catalog/accounts';
import type { CourseStateName } from '@rally/shared/catalog/event-day';
import type { ProfileEdition } from '@rally/shared/contracts/editions';
import type { Comment, MyComment, PublicProfile } from '@rally/shared/contracts/profiles';

export interface PublicProfileRow {
  id: string;
  firstName: string;
  lastName: string;
  kitName: string | null;
  role: Role;
  riderNumber: number | null;
  category: string | null;
  gender: string | null;
  motorcycleModel: string | null;
  verificationStatus: VerificationStatus | null;
  hasProfileImage: boolean;
  fires: number;
  comments: number;
  createdAt: Date;
  lastStationName: string | null;
  lastStationAt: Date | string | null;
  finisher: boolean;
  pastEditions: PastEditionJson[];
}

/** A past edition's verified entry, as the profile query reads it. */
export interface PastEditionJson {
  editionId: string;
  name: string;
  year: number;
  category: string | null;
  riderNumber: number | null;
  state: CourseStateName | null;
  elapsedMs: number | null;
}

/** Built field by field from a row that holds only public columns, so nothing private can slip in. */
export function presentPublicProfile(row: PublicProfileRow): PublicProfile {
  return {
    id: row.id,
    firstName: row.firstName,
    lastName: row.lastName,
    kitName: row.kitName,
    role: row.role,
    riderNumber: row.riderNumber,
    category: row.category,
    gender: row.gender,
    bikeInfo: { model: row.motorcycleModel, category: row.category },
    verificationStatus: row.verificationStatus,
    hasProfileImage: !!row.hasProfileImage,
    stats: { fires: Number(row.fires), comments: Number(row.comments) },
    createdAt: row.createdAt.toISOString(),
    lastStation:
      row.lastStationName && row.lastStationAt
        ? { name: row.lastStationName, at: new Date(row.lastStationAt).toISOString() }
        : null,
    finisher: !!row.finisher,
    // Only once there is history: a rider of the first edition reads as before editions.
    ...(row.pastEditions?.length ? { editions: pastEditions(row) } : {}),
  };
}

/** The past editions the rider's entry was verified in, newest first (the current one is the profile's own fields). */
function pastEditions(row: PublicProfileRow): ProfileEdition[] {
  return (row.pastEditions ?? []).map((e) => ({ ...e, current: false, finisher: e.state === 'finished' }));
}

/** How a rider is named next to what they wrote: the kit name they chose, else their full name. */
export function authorName(u: { kitName: string | null; firstName: string; lastName: string }): string {
  const kit = u.kitName?.trim();
  return kit || `${u.firstName} ${u.lastName}`.trim();
}

export interface CommentRow {
  id: string;
  text: string;
  createdAt: Date;
  authorId: string;
  authorKitName: string | null;
  authorFirstName: string;
  authorLastName: string;
  authorRole: Role;
}

export function presentComment(row: CommentRow): Comment {
  return {
    id: row.id,
    authorId: row.authorId,
    author: authorName({ kitName: row.authorKitName, firstName: row.authorFirstName, lastName: row.authorLastName }),
    authorRank: row.authorRole,
    text: row.text,
    timestamp: row.createdAt.toISOString(),
  };
}

export interface MyCommentRow {
  id: string;
  text: string;
  createdAt: Date;
  targetId: string;
  targetFirstName: string;
  targetLastName: string;
  targetKitName: string | null;
  targetRole: Role;
}

export function presentMyComment(row: MyCommentRow): MyComment {
  return {
    id: row.id,
    commentedOnUser: `${row.targetFirstName} ${row.targetLastName}`.trim(),
    commentedOnUserKitName: row.targetKitName,
    commentedOnUserRank: row.targetRole,
    commentedOnUserId: row.targetId,
    text: row.text,
    timestamp: row.createdAt.toISOString(),
  };
}
