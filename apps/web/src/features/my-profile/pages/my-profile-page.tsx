// My Profile (/me): the rider's own details, rider code,
// comments, announcements and the one-time size forms.
import type { UserRecord } from '@rally/shared/contracts/auth';
import type { GearSizes, TshirtStatus } from '@rally/shared/contracts/rider-kit';
import { can } from '@rally/shared/permissions';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  CloudOff,
  Eye,
  Flame,
  HardHat,
  IdCard,
  KeyRound,
  Megaphone,
  MessageSquare,
  QrCode,
  Shirt,
  TriangleAlert,
} from 'lucide-react';
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { SiteFooter } from '../../../components/layout/site-footer';
import { buttonStyles } from '../../../components/ui/button-styles';
import { PartErrorBoundary } from '../../../components/ui/error-boundary';
import { Logo } from '../../../components/ui/logo';
import { FullScreenSpinner, Spinner } from '../../../components/ui/spinner';
import { useAuth } from '../../../lib/auth';
import { useOnline } from '../../../lib/offline/use-online';
import { toast } from '../../../lib/toast';
import { useHydrated } from '../../../lib/use-hydrated';
import { ProfileAvatar } from '../../public-profile/components/profile-avatar';
import { CategoryBadge, RiderNumberBadge, RoleBadge } from '../../public-profile/components/rider-badges';
import { fullNameOf, kitNameOf } from '../../public-profile/lib/names';
import { fetchAnnouncements, fetchGearSizes, fetchTshirtStatus, myKeys } from '../api/my-profile-api';
import { CelebrationDialog } from '../components/celebration-dialog';
import { DetailsTab } from '../components/details-tab';
import { ProfileMenu } from '../components/profile-menu';
import { ProfileTabs, panelId, type TabDef, tabId } from '../components/profile-tabs';
import { RiderCodeTab } from '../components/rider-code-tab';
import { SosPanel } from '../components/sos-panel';
import { isOfflineFailure } from '../lib/offline';
import { useReadAnnouncements } from '../lib/read-announcements';
import { useAfterPaint } from '../lib/use-after-paint';

type TabId = 'rider-code' | 'comments' | 'details' | 'announcements' | 'tshirt' | 'gear' | 'password';

// The page opens on My Details (on the Rider Code offline), which ship with it; the other
// tabs' code, with its forms and their validation, comes when a tab is first opened, so a
// phone on mobile data fetches and runs less before the page shows. Offline the service
// worker has them (every chunk is precached).
const MyCommentsTab = lazy(() => import('../components/my-comments-tab').then((m) => ({ default: m.MyCommentsTab })));
const AnnouncementsTab = lazy(() =>
  import('../components/announcements-tab').then((m) => ({ default: m.AnnouncementsTab })),
);
const TshirtSizeTab = lazy(() => import('../components/tshirt-size-tab').then((m) => ({ default: m.TshirtSizeTab })));
const GearSizesTab = lazy(() => import('../components/gear-sizes-tab').then((m) => ({ default: m.GearSizesTab })));
// Below My Details, after hydration (the server draws the details, not this section).
const NotificationSettings = lazy(() =>
  import('../notifications/notification-settings').then((m) => ({ default: m.NotificationSettings })),
);
const SmsPinForm = lazy(() => import('../sms-pin/sms-pin-form').then((m) => ({ default: m.SmsPinForm })));
const FollowersList = lazy(() => import('../followers-list').then((m) => ({ default: m.FollowersList })));
// Privacy (DESIGN.md §12): consents, who looked, the rider's data, erasure; below My Details too.
const PrivacySection = lazy(() => import('../privacy/privacy-section').then((m) => ({ default: m.PrivacySection })));
const ChangePasswordForm = lazy(() =>
  import('../../auth/components/change-password-form').then((m) => ({ default: m.ChangePasswordForm })),
);

export default function MyProfilePage() {
  const { user, refreshUser, isOfflineSession } = useAuth();
  // Fresh data on every visit (fires, sizes, verification); the stored user shows meanwhile.
  const profileQuery = useQuery({ queryKey: myKeys.profile, queryFn: refreshUser, staleTime: 0, retry: 1 });

  // Offline, the page keeps the session and shows what this phone has; only
  // an answer from the server is a failed load.
  const offlineFailure = profileQuery.isError && (isOfflineSession || isOfflineFailure(profileQuery.error));

  useEffect(() => {
    if (profileQuery.isError && !offlineFailure) toast.error('Failed to load profile data');
  }, [profileQuery.isError, offlineFailure]);

  if (profileQuery.isError && !(offlineFailure && user)) return <ProfileLoadFailed />;
  if (!user) return <FullScreenSpinner label="Loading your profile..." />;
  return <MyProfileView user={user} />;
}

function MyProfileView({ user }: { user: UserRecord }) {
  const { logout, isOfflineSession } = useAuth();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  // The session kept without a signal (lib/auth.tsx) counts as offline even if the browser says online.
  const online = useOnline() && !isOfflineSession;
  // Without a signal the rider most likely needs the pass: open on it.
  const [tab, setTab] = useState<TabId>(() => (online ? 'details' : 'rider-code'));
  const [opened, setOpened] = useState<ReadonlySet<TabId>>(() => new Set<TabId>([tab]));
  const [celebration, setCelebration] = useState<{ title: string; message: string } | null>(null);
  const { read, markRead } = useReadAnnouncements(user.id);
  // The photo waits for the first paint: the page's text comes first on a slow link.
  const painted = useAfterPaint();
  const hydrated = useHydrated();

  const tshirt = useQuery({ queryKey: myKeys.tshirt, queryFn: fetchTshirtStatus });
  const gear = useQuery({ queryKey: myKeys.gear, queryFn: fetchGearSizes });
  // Loaded on the first opening of the tab, not with the page (the rider-site spec: "Comments
  // and announcements load lazily on first opening when empty").
  const announcements = useQuery({
    queryKey: myKeys.announcements,
    queryFn: fetchAnnouncements,
    enabled: opened.has('announcements'),
  });

  useEffect(() => {
    if (announcements.isError) toast.error('Failed to load announcements');
  }, [announcements.isError]);

  const unread = announcements.data?.filter((a) => !read.has(a.id)).length ?? 0;
  const showTshirt = tshirt.data?.hasSubmitted === false;
  const showGear = gear.data?.hasSubmitted === false;

  const tabs = useMemo(() => {
    const list: TabDef<TabId>[] = [
      { id: 'rider-code', label: 'Rider Code', icon: QrCode },
      { id: 'comments', label: 'Comments', icon: MessageSquare },
      { id: 'details', label: 'My Details', icon: IdCard },
      { id: 'announcements', label: 'Announcements', icon: Megaphone, badge: unread },
    ];
    if (showTshirt) list.push({ id: 'tshirt', label: 'T-shirt Size', icon: Shirt });
    if (showGear) list.push({ id: 'gear', label: 'Gear Sizes', icon: HardHat });
    list.push({ id: 'password', label: 'Password', icon: KeyRound });
    return list;
  }, [unread, showTshirt, showGear]);

  // A tab that disappears (sizes submitted) hands over to My Details.
  const activeTab = tabs.some((t) => t.id === tab) ? tab : 'details';

  const select = useCallback((id: TabId) => {
    setTab(id);
    setOpened((prev) => (prev.has(id) ? prev : new Set(prev).add(id)));
  }, []);

  const sizesSubmitted = <T,>(key: readonly string[], data: T, title: string, message: string) => {
    queryClient.setQueryData(key, data);
    queryClient.invalidateQueries({ queryKey: myKeys.profile });
    setTab('details');
    setCelebration({ title, message });
  };

  // Signing out while this guarded page is still shown would make the guard send the
  // rider to /login; so leave for / first and end the session once this page is gone.
  const loggingOut = useRef(false);
  useEffect(
    () => () => {
      if (!loggingOut.current) return;
      // logout() also drops every kept pass on this phone (lib/storage.ts forgetKeptPasses).
      logout();
      queryClient.clear();
    },
    [logout, queryClient],
  );
  const onLogout = () => {
    toast.success(`Farewell, ${user.firstName || 'warrior'}! May the spirits guide your path.`);
    loggingOut.current = true;
    navigate('/', { replace: true });
  };

  const kitName = kitNameOf(user);
  const closeCelebration = useCallback(() => setCelebration(null), []);

  return (
    <div className="flex min-h-dvh flex-col bg-ink-950 bg-[radial-gradient(ellipse_at_top,rgb(234_88_12/0.16),transparent_55%)]">
      <title>My Profile | Mindanao Warriors Endurance Rally</title>
      <header className="border-b border-ink-700 bg-ink-950/95 pt-[env(safe-area-inset-top)]">
        <div className="mx-auto flex max-w-5xl items-center justify-between gap-2 px-3 py-3 sm:px-4">
          <Link to="/" className="flex items-center gap-2 rounded" aria-label="Mindanao Warriors Endurance Rally home">
            <Logo className="size-10" />
          </Link>
          <div className="flex items-center gap-2">
            <Link to={`/user/${user.id}`} className={buttonStyles('secondary', 'md', 'px-3')}>
              <Eye className="size-5" aria-hidden="true" />
              Public View
            </Link>
            <ProfileMenu role={user.role} onLogout={onLogout} />
          </div>
        </div>
      </header>

      <main id="main" className="mx-auto w-full max-w-5xl flex-1 px-3 py-6 sm:px-4 sm:py-8">
        <h1 className="fire-text text-4xl sm:text-5xl">MY PROFILE</h1>
        {!online && activeTab !== 'rider-code' && (
          <p
            role="status"
            data-testid="profile-offline"
            className="mt-3 flex items-center gap-2 rounded-lg border border-gold-500/70 bg-gold-500/10 px-4 py-2 text-sm text-gold-300"
          >
            <CloudOff className="size-5 shrink-0" aria-hidden="true" />
            You are offline. Showing what this phone saved; your Rider Code still works.
          </p>
        )}

        <section
          aria-label="Your warrior card"
          className="tribal-stripes mt-4 flex flex-col items-center gap-4 rounded-xl border border-ink-700 border-t-4 border-t-fire-500 bg-ink-900 p-5 text-center sm:flex-row sm:text-left"
        >
          <div className="relative">
            <ProfileAvatar
              userId={user.id}
              name={kitName}
              hasImage={user.hasProfileImage && painted}
              className="size-24 border-4"
              size="display"
            />
            <RiderNumberBadge riderNumber={user.riderNumber} className="absolute -right-3 -bottom-1 text-base" />
          </div>
          <div className="min-w-0 flex-1">
            <p className="font-display text-3xl wrap-anywhere text-bone sm:text-4xl">{kitName}</p>
            <p className="text-lg text-ash">{fullNameOf(user)}</p>
            <div className="mt-2 flex flex-wrap justify-center gap-2 sm:justify-start">
              <RoleBadge role={user.role} />
              <CategoryBadge category={user.category} gender={user.gender} />
            </div>
          </div>
          <p className="flex items-center gap-2 rounded-lg border border-ink-700 bg-ink-850 px-4 py-2">
            <Flame className="size-7 text-fire-500" aria-hidden="true" />
            <span className="font-display text-3xl">{user.stats.fires}</span>
            <span className="text-sm text-ash">{user.stats.fires === 1 ? 'fire' : 'fires'}</span>
          </p>
        </section>

        <SosPanel user={user} />

        <div className="mt-6">
          <ProfileTabs tabs={tabs} active={activeTab} onSelect={select} label="My profile sections" />
          <div
            role="tabpanel"
            id={panelId(activeTab)}
            aria-labelledby={tabId(activeTab)}
            // biome-ignore lint/a11y/noNoninteractiveTabindex: the ARIA tabs pattern makes the panel a tab stop
            tabIndex={0}
            className="mt-3 rounded-xl border border-ink-700 bg-ink-900 p-4 sm:p-6 md:mt-0 md:rounded-t-none md:border-t-0"
          >
            <PartErrorBoundary key={activeTab} label="This tab">
              <Suspense fallback={<Spinner label="Loading..." className="py-12" />}>
                {activeTab === 'rider-code' && <RiderCodeTab user={user} />}
                {activeTab === 'comments' && <MyCommentsTab />}
                {activeTab === 'details' && <DetailsTab user={user} editable={online} />}
                {activeTab === 'details' && hydrated && (
                  <PartErrorBoundary label="Notifications and followers">
                    <Suspense fallback={<Spinner label="Loading notification settings..." className="py-6" />}>
                      <div className="mt-6 border-t border-ink-700 pt-6">
                        <NotificationSettings />
                      </div>
                      {/* Staff who scan: the PIN that makes their texted scans count. */}
                      {can(user.role, 'qr_scan') && (
                        <div className="mt-6 border-t border-ink-700 pt-6">
                          <SmsPinForm />
                        </div>
                      )}
                      {/* Who follows this rider's ride, and a way to remove any of them. */}
                      <section
                        aria-labelledby="followers-heading"
                        className="mt-6 grid gap-4 border-t border-ink-700 pt-6"
                      >
                        <div>
                          <h2 id="followers-heading" className="text-2xl text-fire-300">
                            Followers
                          </h2>
                          <p className="mt-1 text-sm text-ash">
                            Family and friends who hear when you pass a checkpoint, finish or leave the rally.
                          </p>
                        </div>
                        <FollowersList />
                      </section>
                      <section
                        id="privacy"
                        aria-labelledby="privacy-heading"
                        className="mt-6 grid gap-4 border-t border-ink-700 pt-6"
                      >
                        <div>
                          <h2 id="privacy-heading" className="text-2xl text-fire-300">
                            Privacy and your data
                          </h2>
                          <p className="mt-1 text-sm text-ash">
                            What you agreed to, who on the staff read your details, your data to download, and erasure.
                          </p>
                        </div>
                        <PrivacySection />
                      </section>
                    </Suspense>
                  </PartErrorBoundary>
                )}
                {activeTab === 'password' && <ChangePasswordForm />}
                {activeTab === 'announcements' && (
                  <AnnouncementsTab query={announcements} read={read} onRead={markRead} />
                )}
                {activeTab === 'tshirt' && (
                  <TshirtSizeTab
                    onSubmitted={(data: TshirtStatus) =>
                      sizesSubmitted(
                        myKeys.tshirt,
                        data,
                        'Size Locked In!',
                        `T-shirt size ${data.size} submitted, warrior!`,
                      )
                    }
                    onLocked={() => queryClient.invalidateQueries({ queryKey: myKeys.tshirt })}
                  />
                )}
                {activeTab === 'gear' && (
                  <GearSizesTab
                    onSubmitted={(data: GearSizes) =>
                      sizesSubmitted(
                        myKeys.gear,
                        data,
                        'Gear Locked In!',
                        'Your finisher sleeve and vest sizes are in, warrior!',
                      )
                    }
                    onLocked={() => queryClient.invalidateQueries({ queryKey: myKeys.gear })}
                  />
                )}
              </Suspense>
            </PartErrorBoundary>
          </div>
        </div>
      </main>
      <SiteFooter />
      <CelebrationDialog
        open={celebration !== null}
        title={celebration?.title ?? ''}
        message={celebration?.message ?? ''}
        onClose={closeCelebration}
      />
    </div>
  );
}

function ProfileLoadFailed() {
  return (
    <div className="flex min-h-dvh items-center justify-center bg-ink-950 px-4">
      <title>Profile Load Failed | Mindanao Warriors Endurance Rally</title>
      <main
        id="main"
        className="w-full max-w-md rounded-xl border-2 border-ember-600 bg-ink-900 p-6 text-center sm:p-8"
      >
        <TriangleAlert className="mx-auto size-14 text-ember-400" aria-hidden="true" />
        <h1 className="mt-4 text-4xl text-ember-400">Profile Load Failed</h1>
        <p role="alert" className="mt-3 text-ash">
          Failed to load profile data
        </p>
        <button
          type="button"
          onClick={() => window.location.reload()}
          className={buttonStyles('primary', 'md', 'mt-6')}
        >
          Retry
        </button>
      </main>
    </div>
  );
}
