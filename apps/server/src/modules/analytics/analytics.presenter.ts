// Turns the database's counts into the tab's figures: every catalog category, route,
// payment method and standard size gets its line (0 included), so the charts keep the same
// bars from one day to the next; the days between the first and the last registration are
// listed even when nobody registered on them.

import { RALLY_ROUTE_IDS } from '@rally/shared/catalog/event-day';
import {
  CATEGORIES,
  type Category,
  PAYMENT_METHODS,
  type PaymentMethod,
  SIZES,
} from '@rally/shared/catalog/registration';
import type { Analytics, SizeLine } from '@rally/shared/contracts/analytics';
import type { AnalyticsCounts, Counted, SizeCount } from './analytics.service';

const DAY_MS = 24 * 60 * 60 * 1000;
const NOT_SET = 'Not set';

/** Every `YYYY-MM-DD` from the first counted day to the last, with its riders (0 when none). */
export function everyDay(days: Counted<string>[]): Analytics['registrations_per_day'] {
  if (days.length === 0) return [];
  const counts = new Map(days.map((d) => [d.key, d.riders]));
  const sorted = [...counts.keys()].sort();
  const first = Date.parse(`${sorted[0]}T00:00:00Z`);
  const last = Date.parse(`${sorted[sorted.length - 1]}T00:00:00Z`);
  const out: Analytics['registrations_per_day'] = [];
  for (let t = first; t <= last; t += DAY_MS) {
    const date = new Date(t).toISOString().slice(0, 10);
    out.push({ date, riders: counts.get(date) ?? 0 });
  }
  return out;
}

/** The catalog's values in catalog order (0 included), then the unset ones when there are any. */
function catalogLines<K extends string>(catalog: readonly K[], counts: Counted<string | null>[]) {
  const byKey = new Map(counts.map((c) => [c.key, c.riders]));
  const lines: Array<{ key: K | null; riders: number }> = catalog.map((key) => ({ key, riders: byKey.get(key) ?? 0 }));
  const unset = counts.filter((c) => c.key === null || !(catalog as readonly string[]).includes(c.key));
  const unsetRiders = unset.reduce((sum, c) => sum + c.riders, 0);
  if (unsetRiders > 0) lines.push({ key: null, riders: unsetRiders });
  return lines;
}

/** Standard sizes in catalog order, custom texts A–Z, then not set. */
export function sizeLines(counts: SizeCount[]): SizeLine[] {
  const standard = SIZES.filter((s) => s !== 'CUSTOM').map((size) => ({
    size,
    custom: '',
    riders: counts.filter((c) => c.size === size).reduce((sum, c) => sum + c.riders, 0),
  }));
  const custom = counts
    .filter((c) => c.size === 'CUSTOM')
    .map((c) => ({ size: 'CUSTOM', custom: c.customText || '(no size given)', riders: c.riders }))
    .sort((a, b) => a.custom.localeCompare(b.custom));
  const known = new Set<string>(SIZES);
  const notSet = counts.filter((c) => c.size === null || !known.has(c.size)).reduce((sum, c) => sum + c.riders, 0);
  return [...standard, ...custom, { size: NOT_SET, custom: '', riders: notSet }];
}

export function presentAnalytics(counts: AnalyticsCounts): Analytics {
  const { riders, verified, pending, rejected } = counts.status;
  return {
    riders,
    registrations_per_day: everyDay(counts.days),
    status: { verified, pending, rejected },
    categories: catalogLines<Category>(CATEGORIES, counts.categories).map(({ key, riders }) => ({
      category: key,
      riders,
    })),
    // Every category maps onto a route, so the routes have no unset line unless a rider has no category.
    routes: catalogLines(RALLY_ROUTE_IDS, counts.routes).map(({ key, riders }) => ({ route: key, riders })),
    clubs: [...counts.clubs]
      .sort((a, b) => b.riders - a.riders || (a.key ?? '\uffff').localeCompare(b.key ?? '\uffff'))
      .map(({ key, riders }) => ({ club: key, riders })),
    payment_methods: catalogLines<PaymentMethod>(PAYMENT_METHODS, counts.paymentMethods).map(({ key, riders }) => ({
      method: key,
      riders,
    })),
    sizes: {
      tshirt: sizeLines(counts.sizes.tshirt),
      finisher_sleeve: sizeLines(counts.sizes.finisher_sleeve),
      vest: sizeLines(counts.sizes.vest),
    },
    turnaround: {
      verified: counts.turnaround.verified,
      median_seconds: counts.turnaround.median,
      p90_seconds: counts.turnaround.p90,
    },
    // Only once there is a last edition to compare with: the first edition's answer is as before.
    ...(counts.previous
      ? {
          registrations_by_edition: {
            current: { edition: counts.previous.current, days: everyDay(counts.days).map((d) => d.riders) },
            previous: { edition: counts.previous.edition, days: everyDay(counts.previous.days).map((d) => d.riders) },
          },
        }
      : {}),
  };
}
