// "FOLLOW THIS RIDER": on a rider's public page (and linked from their pass as /user/{id}#follow).
// The form itself is fetched on the first press: most visitors of a profile never follow.
import { isRiderRole } from '@rally/shared/catalog/accounts';
import type { PublicProfile } from '@rally/shared/contracts/profiles';
import { Bell } from 'lucide-react';
import { lazy, Suspense, useEffect, useState } from 'react';
import { buttonStyles } from '../../../components/ui/button-styles';
import { HydratedButton } from '../../../components/ui/hydrated-button';

const FollowDialog = lazy(() => import('./follow-dialog'));

/** The hash a follow link ends with: the page opens the form at once. */
export const FOLLOW_HASH = '#follow';

/** Only verified riders can be followed (the server answers 404 for anyone else). */
function followable(rider: Pick<PublicProfile, 'role' | 'verificationStatus'>): boolean {
  return rider.verificationStatus === 'verified' && isRiderRole(rider.role);
}

export function FollowButton({
  rider,
  riderName,
}: {
  rider: Pick<PublicProfile, 'id' | 'role' | 'verificationStatus'>;
  riderName: string;
}) {
  const [open, setOpen] = useState(false);
  const canFollow = followable(rider);
  // Read after hydration: the server never sees the hash, so the first render matches its page.
  useEffect(() => {
    if (canFollow && window.location.hash === FOLLOW_HASH) setOpen(true);
  }, [canFollow]);
  if (!canFollow) return null;
  return (
    <>
      <HydratedButton
        onClick={() => setOpen(true)}
        className={buttonStyles('secondary', 'md', 'w-full sm:w-auto')}
        data-testid="follow-rider"
      >
        <Bell className="size-5" aria-hidden="true" />
        FOLLOW THIS RIDER
      </HydratedButton>
      {open && (
        <Suspense fallback={null}>
          <FollowDialog riderId={rider.id} riderName={riderName} onClose={() => setOpen(false)} />
        </Suspense>
      )}
    </>
  );
}
