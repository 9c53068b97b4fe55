// The dashboard's Recent Activity feed as each viewer may read it. Entries are written as
// free text for the System Logs (admins and developers), and some carry personal data: a
// registration's address as its location, a verification code in its details, the email
// of a deleted account or of a reset request. The feed is opened by every staff role
// (view_dashboard), so what an entry shows follows the permission table:
// - contact data and emails: roles that may read a rider's contact details (canReadRiderContact);
// - verification codes: roles that verify payments (verify_users).
// Officers hold neither and see the entry with those parts hidden.
import type { Role } from '@rally/shared/catalog/accounts';
import type { ActivityFeedItem } from '@rally/shared/contracts/dashboard';
import { can, canReadRiderContact } from '@rally/shared/permissions';
import { fullName } from '../../lib/sql-text';
import { VERIFICATION_CODE_PATTERN } from '../../lib/tokens';
import { type ActivityFeedRow, ROUTE_PLACES } from './activities.service';

export const HIDDEN = '[hidden]';

const EMAIL_PATTERN = /[^\s()<>,;:"']+@[^\s()<>,;:"']+/g;

export interface FeedAccess {
  contact: boolean;
  codes: boolean;
}

export function feedAccess(viewerRole: Role): FeedAccess {
  return { contact: canReadRiderContact(viewerRole), codes: can(viewerRole, 'verify_users') };
}

function redact(text: string, access: FeedAccess): string {
  let out = text;
  if (!access.contact) out = out.replace(EMAIL_PATTERN, HIDDEN);
  if (!access.codes) out = out.replace(VERIFICATION_CODE_PATTERN, HIDDEN);
  return out;
}

export function presentActivity(row: ActivityFeedRow, access: FeedAccess): ActivityFeedItem {
  // The live account's names when it still exists, else the snapshot taken at the time.
  const name = row.firstName !== null ? fullName(row.firstName, row.lastName) : row.userName;
  const details = row.details ? `${row.description}. ${row.details}` : row.description;
  const location = row.location !== null && (access.contact || ROUTE_PLACES.has(row.location)) ? row.location : null;
  return {
    id: row.id,
    type: row.type,
    priority: row.priority,
    user: redact(row.kitName || name || row.actorName || 'System', access),
    fullName: name ? redact(name, access) : null,
    details: redact(details, access),
    location,
    timestamp: row.createdAt.toISOString(),
  };
}

/** A page of the feed as the viewer may read it. */
export function presentActivityFeed(
  page: { rows: ActivityFeedRow[]; total: number },
  viewerRole: Role,
  offset: number,
): { activities: ActivityFeedItem[]; total: number; hasMore: boolean } {
  const access = feedAccess(viewerRole);
  const activities = page.rows.map((row) => presentActivity(row, access));
  return { activities, total: page.total, hasMore: offset + activities.length < page.total };
}
