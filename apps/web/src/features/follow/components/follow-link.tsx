// On the rider's own pass: the way to the follow form on their public page, to share with family.
import { Bell } from 'lucide-react';
import { Link } from 'react-router';
import { FOLLOW_HASH } from './follow-button';

export function FollowLink({ riderId }: { riderId: string }) {
  return (
    <Link
      to={`/user/${riderId}${FOLLOW_HASH}`}
      className="inline-flex min-h-11 items-center gap-2 px-2 font-bold text-gold-300 underline-offset-4 hover:underline"
      data-testid="pass-follow-link"
    >
      <Bell className="size-5 shrink-0" aria-hidden="true" />
      <span>Let family follow your ride: share your follow link</span>
    </Link>
  );
}
