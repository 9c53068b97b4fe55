import type { Follower } from '@rally/shared/contracts/messages';
import { iso } from '../../lib/sql-text';
import { presentRecipient } from '../messages/messages.presenter';

export interface FollowerListRow {
  id: string;
  email: string | null;
  /** The follower's browser's push endpoint (push followers). */
  endpoint: string | null;
  confirmedAt: Date | null;
  createdAt: Date;
}

/** The push service a browser gets its pushes through: the endpoint's path is a capability, never shown. */
function browserLabel(endpoint: string | null): string {
  if (!endpoint) return 'Browser';
  try {
    return `Browser (${new URL(endpoint).host})`;
  } catch {
    return 'Browser';
  }
}

/** A follower as the rider sees them: enough to tell them apart (m***@gmail.com), no more. */
export function presentFollower(row: FollowerListRow): Follower {
  return {
    id: row.id,
    channel: row.email !== null ? 'email' : 'push',
    label: row.email !== null ? presentRecipient('email', row.email, null, false) : browserLabel(row.endpoint),
    confirmed: row.confirmedAt !== null,
    createdAt: iso(row.createdAt),
  };
}
