// /live (no sign-in): the public tracker for spectators, phone first and
// readable in the sun: big type, high contrast. Per route: where each rider was last seen,
// the finishers with their times, the DNF count; the results once everyone is in. Before
// the flag-off the route stays classified: the server sends no station name at all.
import type { RallyRouteId } from '@rally/shared/catalog/event-day';
import { RALLY_ROUTES } from '@rally/shared/catalog/landing';
import type { LiveState } from '@rally/shared/contracts/live';
import { useQuery } from '@tanstack/react-query';
import { EyeOff, Radio, RefreshCw, Search } from 'lucide-react';
import { type ReactNode, useDeferredValue, useId, useState } from 'react';
import { Link } from 'react-router';
import { buttonStyles } from '../../../components/ui/button-styles';
import { Logo } from '../../../components/ui/logo';
import { PageMeta } from '../../../components/ui/page-meta';
import { FullScreenSpinner } from '../../../components/ui/spinner';
import { type LiveRouteAnswer, liveQuery } from '../api/live-api';
import { LiveResults } from '../components/live-results';
import { LiveRiderList, STATE_STYLES } from '../components/live-rider-list';
import { matchesSearch } from '../lib/live-format';

const COUNT_ORDER: ReadonlyArray<[LiveState, string]> = [
  ['on_course', 'On course'],
  ['finished', 'Finished'],
  ['dnf', 'DNF'],
  ['not_started', 'Not started'],
];

export default function LivePage() {
  const query = useQuery(liveQuery());
  const [routeId, setRouteId] = useState<RallyRouteId>('lakambini');
  const [search, setSearch] = useState('');
  const deferred = useDeferredValue(search);
  const searchId = useId();

  if (query.isPending) return <FullScreenSpinner label="Loading the live tracker..." />;
  const body = query.data;
  const routes = body?.data ?? [];
  const route = routes.find((r) => r.routeId === routeId) ?? routes[0];
  const started = body?.meta.started ?? false;
  const over = body?.meta.over ?? false;

  return (
    <div className="min-h-screen bg-ink-950 text-bone">
      <PageMeta title="Live Tracker" description="Where every warrior is on the course, live." />
      <header className="border-b-4 border-fire-500 bg-ink-900">
        <div className="mx-auto flex max-w-6xl flex-wrap items-center justify-between gap-3 px-4 py-3">
          <Link to="/" aria-label="Home">
            <Logo />
          </Link>
          <button
            type="button"
            className={buttonStyles('secondary')}
            disabled={query.isFetching}
            onClick={() => void query.refetch()}
          >
            <RefreshCw className={`size-5 ${query.isFetching ? 'animate-spin' : ''}`} aria-hidden="true" />
            Refresh
          </button>
        </div>
      </header>
      <main id="main" className="mx-auto max-w-6xl space-y-5 px-4 py-5">
        <div>
          <h1 className="flex items-center gap-3 font-display text-4xl tracking-wider uppercase sm:text-5xl">
            <Radio className="size-9 shrink-0 text-ember-500" aria-hidden="true" />
            {over ? 'Results' : 'Live Tracker'}
          </h1>
          <p className="mt-1 text-ash" aria-live="polite">
            {query.dataUpdatedAt > 0 &&
              `Updated ${new Date(query.dataUpdatedAt).toLocaleTimeString('en-PH', { hour: 'numeric', minute: '2-digit' })}`}
            {query.isError && ' · Could not refresh: showing the last answer'}
          </p>
        </div>

        {query.isError && !body ? (
          <p role="alert" className="rounded-lg border-2 border-ember-600 p-4 text-lg font-bold text-ember-400">
            The tracker could not be loaded. Check your signal and press Refresh.
          </p>
        ) : (
          <>
            <div role="tablist" aria-label="Routes" className="grid grid-cols-3 gap-2">
              {routes.map((r) => (
                <button
                  key={r.routeId}
                  type="button"
                  role="tab"
                  aria-selected={r.routeId === route?.routeId}
                  onClick={() => setRouteId(r.routeId)}
                  className={`min-h-14 rounded-lg border-2 px-2 py-2 font-display text-base tracking-wider uppercase sm:text-xl ${
                    r.routeId === route?.routeId
                      ? 'border-fire-500 bg-fire-500 text-ink-950'
                      : 'border-ink-600 bg-ink-900 text-bone hover:border-fire-500'
                  }`}
                >
                  {/* A break after the slash: "Lakambini/Magani" fits a third of a 360 px screen in two lines. */}
                  <span className="block leading-tight wrap-anywhere">
                    {RALLY_ROUTES[r.routeId].name.replace('/', '/\u200b')}
                  </span>
                  <span className="block text-xs opacity-80 sm:text-sm">{RALLY_ROUTES[r.routeId].distance}</span>
                </button>
              ))}
            </div>

            {!started && (
              <p
                data-testid="live-classified"
                className="flex items-center gap-3 rounded-lg border-2 border-gold-400 bg-gold-400/10 p-4 text-lg font-bold text-gold-300"
              >
                <EyeOff className="size-6 shrink-0" aria-hidden="true" />
                The route is classified until the flag-off. Stations appear once the rally has started.
              </p>
            )}

            {route && (
              <RouteView
                route={route}
                started={started}
                over={over}
                search={deferred}
                searchBox={
                  <label htmlFor={searchId} className="block">
                    <span className="sr-only">Search by rider number or name</span>
                    <span className="relative block">
                      <Search
                        className="pointer-events-none absolute top-1/2 left-3 size-6 -translate-y-1/2 text-ash"
                        aria-hidden="true"
                      />
                      <input
                        id={searchId}
                        type="search"
                        inputMode="search"
                        value={search}
                        onChange={(e) => setSearch(e.target.value)}
                        placeholder="Rider # or name"
                        className="min-h-14 w-full rounded-lg border-2 border-ink-600 bg-ink-900 pr-3 pl-12 text-xl text-bone placeholder:text-smoke focus:border-fire-500"
                      />
                    </span>
                  </label>
                }
              />
            )}
          </>
        )}
      </main>
    </div>
  );
}

function RouteView({
  route,
  started,
  over,
  search,
  searchBox,
}: {
  route: LiveRouteAnswer;
  started: boolean;
  over: boolean;
  search: string;
  searchBox: ReactNode;
}) {
  const riders = route.riders.filter((r) => matchesSearch(r, search));
  return (
    <div className="space-y-5">
      <dl className="grid grid-cols-2 gap-2 sm:grid-cols-4" aria-label="Riders by state">
        {COUNT_ORDER.map(([state, label]) => {
          const n = state === 'dnf' ? route.dnfCount : (route.counts[state] ?? 0);
          // An empty count stays quiet: a red DNF block reading 0 would shout for nothing.
          const tone = n > 0 ? STATE_STYLES[state] : STATE_STYLES.not_started;
          return (
            <div key={state} className={`rounded-lg border-2 px-3 py-2 ${tone}`}>
              <dt className="text-sm font-bold uppercase">{label}</dt>
              <dd className="font-display text-4xl tabular-nums" data-testid={`live-count-${state}`}>
                {n}
              </dd>
            </div>
          );
        })}
      </dl>
      {(over || route.finishers.length > 0) && (
        <LiveResults finishers={route.finishers} title={over ? 'Final results' : 'Finishers'} />
      )}
      <section aria-label="Every rider" className="space-y-3">
        {searchBox}
        <LiveRiderList key={`${route.routeId}:${search}`} riders={riders} started={started} />
      </section>
    </div>
  );
}
