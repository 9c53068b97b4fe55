// The staff console, "Command Center": a header, a sidebar of
// the tabs the viewer's permissions allow, and the chosen tab. Each tab is its own
// chunk, fetched when first opened. The tab lives in the URL (?tab=users) so a reload
// or a shared link lands on the same screen.
import { CONSOLE_TABS, type ConsoleTabId, can } from '@rally/shared/permissions';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  BarChart3,
  CalendarRange,
  ClipboardList,
  FileText,
  Flag,
  KeyRound,
  LayoutDashboard,
  Lock,
  type LucideIcon,
  Megaphone,
  Menu,
  Package,
  QrCode,
  ScrollText,
  Settings,
  ShieldCheck,
  UserRound,
  Users,
  X,
} from 'lucide-react';
import {
  type ComponentType,
  type LazyExoticComponent,
  lazy,
  Suspense,
  useEffect,
  useId,
  useLayoutEffect,
  useState,
} from 'react';
import { Link, useSearchParams } from 'react-router';
import { buttonStyles } from '../../../components/ui/button-styles';
import { Logo } from '../../../components/ui/logo';
import { SITE_NAME } from '../../../components/ui/page-meta';
import { useAuth } from '../../../lib/auth';
import { editionsQuery } from '../../../lib/editions';
import { setViewedEdition } from '../../../lib/viewed-edition';
import { dropOtherEditions, scopeConsoleQueries } from '../api/edition-scope';
import { staffRoleLabel } from '../components/display';
import { IncidentAlarm } from '../components/incident-alarm';
import { LoadingPanel } from '../components/list-states';
import { PastEditionBanner } from '../components/past-edition-banner';
import { PastEditionContext } from '../components/past-edition-context';

const TAB_COMPONENTS: Record<ConsoleTabId, LazyExoticComponent<ComponentType>> = {
  dashboard: lazy(() => import('../dashboard/pages/dashboard-tab')),
  'event-day': lazy(() => import('../event-day/pages/event-day-tab')),
  users: lazy(() => import('../users/pages/users-tab')),
  masterlist: lazy(() => import('../masterlist/pages/masterlist-tab')),
  verifications: lazy(() => import('../verifications/pages/verifications-tab')),
  'kit-tracker': lazy(() => import('../kit-tracker/pages/kit-tracker-tab')),
  'id-cards': lazy(() => import('../id-cards/pages/id-cards-tab')),
  'password-resets': lazy(() => import('../password-resets/pages/password-resets-tab')),
  announcements: lazy(() => import('../announcements/pages/announcements-tab')),
  logs: lazy(() => import('../logs/pages/logs-tab')),
  analytics: lazy(() => import('../analytics/pages/analytics-tab')),
  reports: lazy(() => import('../reports/pages/reports-tab')),
  editions: lazy(() => import('../editions/pages/editions-tab')),
  privacy: lazy(() => import('../privacy/pages/privacy-tab')),
  settings: lazy(() => import('../settings/pages/settings-tab')),
};

const TAB_ICONS: Record<ConsoleTabId, LucideIcon> = {
  dashboard: LayoutDashboard,
  'event-day': Flag,
  users: Users,
  masterlist: ClipboardList,
  verifications: ShieldCheck,
  'kit-tracker': Package,
  'id-cards': QrCode,
  'password-resets': KeyRound,
  announcements: Megaphone,
  logs: ScrollText,
  analytics: BarChart3,
  reports: FileText,
  editions: CalendarRange,
  privacy: Lock,
  settings: Settings,
};

type Tab = (typeof CONSOLE_TABS)[number];

export default function ConsolePage() {
  const { user } = useAuth();
  const [params, setParams] = useSearchParams();
  const [menuOpen, setMenuOpen] = useState(false);
  const menuId = useId();

  const tabs = CONSOLE_TABS.filter((tab) => can(user?.role, tab.permission));
  const requested = params.get('tab');
  const active: Tab | undefined = tabs.find((tab) => tab.id === requested) ?? tabs[0];
  const ActiveTab = active ? TAB_COMPONENTS[active.id] : null;
  const editionList = useQuery(editionsQuery());
  const editions = editionList.data;
  // A past edition browsed (?edition=ID, so a link shares it): every staff call asks for it.
  // Until the editions are known, which one is browsed is not (undefined); naming one that
  // is not past (the current one, the next one, an unknown one) browses the current edition.
  const asked = params.get('edition');
  const viewing = asked ? editions?.find((e) => e.id === asked && e.closedAt !== null) : undefined;
  const viewingId = !asked ? null : editions ? (viewing?.id ?? null) : editionList.isError ? asked : undefined;
  const queryClient = useQueryClient();
  // The edition the tab's queries are asked and cached under. It changes in a layout effect,
  // which runs before the browser paints and before any query fetches; the tab is drawn once
  // it has changed, so no screen shows (or asks for) one edition under the other's name.
  const [scoped, setScoped] = useState<string | null | undefined>(undefined);
  useLayoutEffect(() => {
    if (viewingId === undefined) return;
    scopeConsoleQueries(queryClient);
    setViewedEdition(viewingId);
    dropOtherEditions(queryClient, viewingId);
    setScoped(viewingId);
  }, [viewingId, queryClient]);
  useEffect(() => () => setViewedEdition(null), []);
  const ready = viewingId !== undefined && scoped === viewingId;

  const choose = (id: ConsoleTabId) => {
    setMenuOpen(false);
    setParams(asked ? { tab: id, edition: asked } : { tab: id });
  };

  return (
    <div className="flex min-h-dvh flex-col bg-ink-950">
      <title>{`${active?.title ?? 'Command Center'} | Command Center | ${SITE_NAME}`}</title>
      <header className="sticky top-0 z-30 border-b border-ink-700 bg-ink-950/95 pt-[env(safe-area-inset-top)] backdrop-blur">
        <div className="flex items-center justify-between gap-2 px-3 py-3 sm:px-5">
          <div className="flex min-w-0 items-center gap-2">
            <Link to="/" className="shrink-0 rounded" aria-label="Rally home">
              <Logo className="size-8 sm:size-10" />
            </Link>
            <div className="min-w-0">
              <h1 className="whitespace-nowrap text-xl text-bone sm:text-3xl">
                Command <span className="text-fire-400">Center</span>
              </h1>
              {user && (
                <p className="truncate text-xs text-ash">
                  {user.kitName || `${user.firstName} ${user.lastName}`} · {staffRoleLabel(user.role)}
                </p>
              )}
            </div>
          </div>
          <div className="flex shrink-0 items-center gap-1 sm:gap-2">
            <button
              type="button"
              className={buttonStyles('ghost', 'md', 'px-2.5 md:hidden')}
              aria-expanded={menuOpen}
              aria-controls={menuId}
              onClick={() => setMenuOpen((open) => !open)}
            >
              {menuOpen ? <X className="size-5" aria-hidden="true" /> : <Menu className="size-5" aria-hidden="true" />}
              <span className="max-[419px]:sr-only">Menu</span>
            </button>
            <Link to="/me" className={buttonStyles('secondary', 'md', 'px-2.5 sm:px-3')}>
              <UserRound className="size-4" aria-hidden="true" />
              <span className="hidden min-[400px]:inline">My Profile</span>
              <span className="sr-only min-[400px]:hidden">My Profile</span>
            </Link>
          </div>
        </div>
        {/* On phones the sidebar folds into this menu under the header (69 px tall there). */}
        <nav
          id={menuId}
          aria-label="Console sections"
          className={`${menuOpen ? 'block' : 'hidden'} max-h-[min(70dvh,calc(100dvh-4.3125rem-var(--alarm-inset,0px)))] overflow-y-auto border-t border-ink-700 px-3 pb-3 md:hidden`}
        >
          <TabList tabs={tabs} active={active?.id} onChoose={choose} />
        </nav>
      </header>

      {viewing && (
        <PastEditionBanner
          edition={viewing}
          current={editions?.find((e) => e.current)}
          onBack={() => setParams(active ? { tab: active.id } : {})}
        />
      )}
      <div className="flex flex-1">
        {/* Below the header (77 px from md up: two lines of title, padding, border) and above
            an SOS bar, so its last section is never out of reach. */}
        <nav
          aria-label="Console sections"
          className="sticky top-[4.8125rem] hidden h-[calc(100dvh-4.8125rem-var(--alarm-inset,0px))] w-56 shrink-0 2xl:w-64 overflow-y-auto border-r border-ink-700 bg-ink-900 p-3 md:block"
        >
          <TabList tabs={tabs} active={active?.id} onChoose={choose} />
        </nav>
        <main id="main" className="min-w-0 flex-1 px-3 py-5 sm:px-6">
          {!ActiveTab ? (
            <p className="text-ash">No console sections are available to your role.</p>
          ) : !ready ? (
            <LoadingPanel label="Loading..." />
          ) : (
            <PastEditionContext.Provider value={viewing ?? null}>
              <Suspense fallback={<LoadingPanel label="Loading..." />}>
                <ActiveTab key={`${active?.id}:${scoped ?? 'current'}`} />
              </Suspense>
            </PastEditionContext.Provider>
          )}
        </main>
      </div>
      <IncidentAlarm />
    </div>
  );
}

function TabList({
  tabs,
  active,
  onChoose,
}: {
  tabs: readonly Tab[];
  active: ConsoleTabId | undefined;
  onChoose: (id: ConsoleTabId) => void;
}) {
  return (
    <ul className="flex flex-col gap-1 pt-2 md:pt-0">
      {tabs.map((tab) => {
        const Icon = TAB_ICONS[tab.id];
        const current = tab.id === active;
        return (
          <li key={tab.id}>
            <button
              type="button"
              onClick={() => onChoose(tab.id)}
              aria-current={current ? 'page' : undefined}
              data-tab={tab.id}
              className={`flex min-h-11 w-full items-center gap-3 rounded-md px-3 py-2 text-left text-sm font-bold transition-colors ${
                current ? 'bg-fire-500 text-ink-950' : 'text-ash hover:bg-ink-800 hover:text-bone'
              }`}
            >
              <Icon className="size-5 shrink-0" aria-hidden="true" />
              {tab.title}
            </button>
          </li>
        );
      })}
    </ul>
  );
}
