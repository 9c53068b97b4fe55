// The public rider profile (/user/{userId}): anyone may look;
// signed-in, verified riders give fire and leave support messages.
import { RALLY_TIME_ZONE } from '@rally/shared/catalog/event-day';
import { categoryDisplay } from '@rally/shared/catalog/registration';
import type { FireState, PublicProfile } from '@rally/shared/contracts/profiles';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ArrowLeft, Bike, Flame, MapPin, Share2, ShieldQuestion } from 'lucide-react';
import { useState, useSyncExternalStore } from 'react';
import { Link, useParams } from 'react-router';
import { ErrorScreen } from '../../../components/layout/error-screen';
import { SiteFooter } from '../../../components/layout/site-footer';
import { buttonStyles } from '../../../components/ui/button-styles';
import { HydratedButton } from '../../../components/ui/hydrated-button';
import { Logo } from '../../../components/ui/logo';
import { PageMeta } from '../../../components/ui/page-meta';
import { FullScreenSpinner } from '../../../components/ui/spinner';
import { ApiError } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth';
import { toast } from '../../../lib/toast';
import { useHydrated } from '../../../lib/use-hydrated';
import { FollowButton } from '../../follow/components/follow-button';
import { fetchFireStatus, fetchPublicProfile, giveFire, ProfileNotFoundError, profileKeys } from '../api/profile-api';
import { CommentSection } from '../components/comment-section';
import { EditionHistory } from '../components/edition-history';
import { ProfilePhoto } from '../components/profile-photo';
import { CategoryBadge, FinisherBadge, RiderNumberBadge, RoleBadge } from '../components/rider-badges';
import { ShareDialog } from '../components/share-dialog';
import { StatsPanel } from '../components/stats-panel';
import { DEMO_ID, demoProfile } from '../lib/demo-profile';
import { fullNameOf, kitNameOf } from '../lib/names';

// The server renders this page (apps/server/src/modules/profiles/profile-page.routes.ts) without
// knowing the host it is reached by: the share link starts relative there, and the hydrating
// client starts from the same value (no hydration mismatch). The dialog opens only later.
const noSubscription = () => () => {};
const browserOrigin = () => window.location.origin;
const serverOrigin = () => '';

function loadErrorMessage(error: unknown): string {
  if (error instanceof ProfileNotFoundError || (error instanceof ApiError && error.status === 404))
    return 'User not found';
  return 'Failed to load profile';
}

export default function PublicProfilePage() {
  const { userId } = useParams();
  const id = userId ?? DEMO_ID;
  const isDemo = id === DEMO_ID;
  const [demo] = useState(demoProfile);

  const query = useQuery({
    queryKey: profileKeys.profile(id),
    queryFn: () => fetchPublicProfile(id),
    enabled: !isDemo,
  });
  const profile = isDemo ? demo : query.data;

  if (!isDemo && query.isPending) return <FullScreenSpinner label="Loading warrior profile..." />;
  if (!profile) return <NotFound message={loadErrorMessage(query.error)} />;
  return <ProfileView key={profile.id} profile={profile} isDemo={isDemo} />;
}

function ProfileView({ profile, isDemo }: { profile: PublicProfile; isDemo: boolean }) {
  const { user, isAuthenticated } = useAuth();
  const queryClient = useQueryClient();
  const viewerId = isAuthenticated && user ? user.id : null;
  const [shareOpen, setShareOpen] = useState(false);
  const [demoFire, setDemoFire] = useState<FireState>({ hasGivenFire: false, totalFires: profile.stats.fires });
  const [demoCommentCount, setDemoCommentCount] = useState(profile.stats.comments);

  const fireKey = [...profileKeys.fire(profile.id), viewerId] as const;
  const fireQuery = useQuery({ queryKey: fireKey, queryFn: () => fetchFireStatus(profile.id), enabled: !isDemo });
  const fire: FireState = isDemo
    ? demoFire
    : (fireQuery.data ?? { hasGivenFire: false, totalFires: profile.stats.fires });

  const fireMutation = useMutation({
    mutationFn: () => giveFire(profile.id),
    onSuccess: (state) => {
      queryClient.setQueryData(fireKey, state);
      toast.success(`You gave fire to ${kitNameOf(profile)}! 🔥`);
    },
    onError: (error) => {
      if (error instanceof ApiError && error.status === 409) {
        queryClient.invalidateQueries({ queryKey: fireKey });
        toast.error(error.message);
      } else if (error instanceof ApiError && error.status === 403) {
        toast.error(error.message);
      } else {
        toast.error('Failed to give fire. Try again later!');
      }
    },
  });

  const onGiveFire = () => {
    if (!viewerId) {
      toast.error('Please log in to give fire! 🔥');
      return;
    }
    if (viewerId === profile.id) {
      toast.error("You can't give fire to yourself! 🤔");
      return;
    }
    if (fire.hasGivenFire || fireMutation.isPending) return;
    if (isDemo) {
      setDemoFire((f) => ({ hasGivenFire: true, totalFires: f.totalFires + 1 }));
      toast.success(`You gave fire to ${kitNameOf(profile)}! 🔥`);
      return;
    }
    fireMutation.mutate();
  };

  const kitName = kitNameOf(profile);
  const fullName = fullNameOf(profile);
  const category = categoryDisplay(profile.category, { gender: profile.gender });
  const path = isDemo ? '/user' : `/user/${profile.id}`;
  const origin = useSyncExternalStore(noSubscription, browserOrigin, serverOrigin);
  const shareUrl = `${origin}${path}`;
  const commentCount = isDemo ? demoCommentCount : profile.stats.comments;

  return (
    <div className="flex min-h-dvh flex-col bg-ink-950 bg-[radial-gradient(ellipse_at_top,rgb(234_88_12/0.18),transparent_60%)]">
      <PageMeta
        title={`${kitName} — Warrior Profile`}
        path={path}
        description={`${kitName} (${fullName}) rides ${category.name} ${category.distance} at the Mindanao Warriors Endurance Rally. Give them fire and leave a support message.`}
      />
      <header className="border-b border-ink-700 bg-ink-950/95 pt-[env(safe-area-inset-top)]">
        <div className="mx-auto flex max-w-5xl items-center justify-between gap-2 px-3 py-3 sm:px-4">
          <Link to="/me" className={buttonStyles('ghost', 'md', 'px-2 sm:px-3')}>
            <ArrowLeft className="size-5" aria-hidden="true" />
            <span>
              Back<span className="sr-only sm:not-sr-only"> to your profile</span>
            </span>
          </Link>
          <Link to="/" className="rounded" aria-label="Mindanao Warriors Endurance Rally home">
            <Logo className="size-10" />
          </Link>
          {/* The server sends this page drawn: the buttons wait, disabled, for the scripts. */}
          <HydratedButton onClick={() => setShareOpen(true)} className={buttonStyles('secondary', 'md', 'px-3')}>
            <Share2 className="size-5" aria-hidden="true" />
            <span>
              Share<span className="sr-only sm:not-sr-only"> Profile</span>
            </span>
          </HydratedButton>
        </div>
      </header>

      <main id="main" className="mx-auto w-full max-w-5xl flex-1 space-y-5 px-3 py-6 sm:px-4 sm:py-10">
        {isDemo && (
          <p className="rounded-lg border border-gold-500/60 bg-gold-500/10 px-4 py-3 text-sm text-gold-300">
            This is a demo warrior profile. Fire and messages given here stay on this page.
          </p>
        )}
        <section
          aria-label="Warrior"
          className="tribal-stripes relative overflow-hidden rounded-xl border border-ink-700 border-t-4 border-t-fire-500 bg-ink-900 p-5 sm:p-8"
        >
          <div className="flex flex-col items-center gap-6 text-center sm:flex-row sm:items-center sm:text-left">
            <div className="relative">
              <ProfilePhoto
                userId={profile.id}
                name={kitName}
                hasImage={profile.hasProfileImage && !isDemo}
                className="size-32 border-4 sm:size-40"
              />
              <RiderNumberBadge riderNumber={profile.riderNumber} className="absolute -right-2 -bottom-1 text-xl" />
            </div>
            <div className="min-w-0 flex-1">
              <h1 className="fire-text text-4xl wrap-anywhere sm:text-6xl">{kitName}</h1>
              <p className="mt-1 text-xl font-semibold text-bone">{fullName}</p>
              <p className="mt-1 flex items-center justify-center gap-2 text-ash sm:justify-start">
                <Bike className="size-5 text-fire-400" aria-hidden="true" />
                {profile.bikeInfo.model?.trim() || 'Unknown Ride'}
              </p>
              <div className="mt-3 flex flex-wrap justify-center gap-2 sm:justify-start">
                <RoleBadge role={profile.role} />
                <CategoryBadge category={profile.category} gender={profile.gender} />
                {profile.finisher && <FinisherBadge />}
              </div>
              {profile.lastStation && <LastSeen station={profile.lastStation} />}
            </div>
            <div className="flex w-full flex-col items-center gap-3 sm:w-auto">
              <p className="flex items-center gap-2" aria-live="polite">
                <Flame className="size-9 animate-flicker text-fire-500" aria-hidden="true" />
                <span className="font-display text-5xl text-bone" data-testid="fire-count">
                  {fire.totalFires}
                </span>
                <span className="sr-only">{fire.totalFires === 1 ? 'fire' : 'fires'}</span>
              </p>
              <HydratedButton
                onClick={onGiveFire}
                disabled={fire.hasGivenFire || fireMutation.isPending}
                className={buttonStyles('primary', 'lg', 'w-full sm:w-auto')}
              >
                <Flame className="size-6" aria-hidden="true" />
                {fire.hasGivenFire ? 'FIRE GIVEN' : fireMutation.isPending ? 'GIVING...' : 'GIVE FIRE'}
              </HydratedButton>
              {!viewerId && (
                <p className="flex items-center gap-1 text-xs text-smoke">
                  <ShieldQuestion className="size-4" aria-hidden="true" />
                  Not logged in - fire functionality disabled
                </p>
              )}
              {!isDemo && <FollowButton rider={profile} riderName={kitName} />}
            </div>
          </div>
        </section>

        <div className="grid gap-5 lg:grid-cols-[minmax(0,1fr)_minmax(0,1.5fr)] lg:items-start">
          <div className="min-w-0 space-y-5">
            <StatsPanel profile={profile} fires={fire.totalFires} comments={commentCount} />
            {profile.editions && profile.editions.length > 0 && (
              <EditionHistory editions={profile.editions} gender={profile.gender} />
            )}
          </div>
          <CommentSection
            profileId={profile.id}
            isDemo={isDemo}
            viewerId={viewerId}
            viewerName={user ? kitNameOf(user) : 'WARRIOR'}
            onCommentAdded={() => {
              if (isDemo) setDemoCommentCount((n) => n + 1);
              else queryClient.invalidateQueries({ queryKey: profileKeys.profile(profile.id) });
            }}
          />
        </div>
      </main>
      <SiteFooter />
      <ShareDialog open={shareOpen} onClose={() => setShareOpen(false)} url={shareUrl} riderName={kitName} />
    </div>
  );
}

/**
 * 'Last seen at Marilog · 10:42 AM' (with the date once it is not today). Until hydrated,
 * as the server rendered it: the date and the rally's time, which the first client render
 * repeats, and then the visitor's own time.
 */
function LastSeen({ station }: { station: NonNullable<PublicProfile['lastStation']> }) {
  const hydrated = useHydrated();
  const at = new Date(station.at);
  // The rally's clock while server-rendered: the server cannot know the visitor's time zone.
  const timeZone = hydrated ? undefined : RALLY_TIME_ZONE;
  const time = at.toLocaleTimeString('en-PH', { hour: 'numeric', minute: '2-digit', timeZone });
  const today = hydrated && at.toDateString() === new Date().toDateString();
  const when = today
    ? time
    : `${at.toLocaleDateString('en-PH', { month: 'short', day: 'numeric', timeZone })}, ${time}`;
  return (
    <p
      data-testid="last-station"
      className="mt-3 inline-flex items-center gap-2 rounded-lg border-2 border-fire-500 bg-fire-500/10 px-3 py-1.5 font-bold text-fire-300"
    >
      <MapPin className="size-5 shrink-0" aria-hidden="true" />
      <span>
        Last seen at <span className="text-bone">{station.name}</span> · <time dateTime={station.at}>{when}</time>
      </span>
    </p>
  );
}

function NotFound({ message }: { message: string }) {
  return (
    <ErrorScreen
      title="Warrior Not Found"
      message={message}
      alert
      icon={<ShieldQuestion className="mx-auto size-14 text-ember-400" aria-hidden="true" />}
      actions={
        <Link to="/" className={buttonStyles('primary', 'md')}>
          Return to Rally
        </Link>
      }
    />
  );
}
