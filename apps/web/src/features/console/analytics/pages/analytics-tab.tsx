// Analytics (issue 18): the organisers' figures in place of the specs' coming-soon
// placeholder. Every chart comes with its numbers as a table; the chart library is
// imported here only, so it loads with this tab and nowhere else.

import { KIT_ITEM_LABELS, type KitItem } from '@rally/shared/catalog/console';
import type { Analytics } from '@rally/shared/contracts/analytics';
import { useQuery } from '@tanstack/react-query';
import { BarChart3, Clock, Hourglass, ShieldAlert, ShieldCheck, Timer, Users } from 'lucide-react';
import { QueryStates } from '../../components/list-states';
import { RefreshButton } from '../../components/refresh-button';
import { StatCard, StatGrid } from '../../components/stat-card';
import { TabHeading } from '../../components/tab-heading';
import { analyticsKeys, fetchAnalytics } from '../api/analytics-api';
import { ChartCard, type ChartRow } from '../components/chart-card';
import { EditionComparisonCard } from '../components/edition-comparison-card';
import { categoryLabel, dayLabel, durationLabel, paymentLabel, routeLabel, sizeLabel } from '../lib/analytics-labels';

/** The kit items in the order the printer's form lists them. */
const SIZE_ITEMS: readonly KitItem[] = ['tshirt', 'finisher_sleeve', 'vest'];

/** The chart shows this many clubs; the table lists them all. */
const TOP_CLUBS = 10;

const COLORS = {
  fire: ['--color-fire-500', '#f97316'],
  fireLight: ['--color-fire-400', '#fb923c'],
  gold: ['--color-gold-400', '#fbbf24'],
  ember: ['--color-ember-400', '#f87171'],
  jade: ['--color-jade-400', '#4ade80'],
  fireSoft: ['--color-fire-300', '#fdba74'],
} as const;

export default function AnalyticsTab() {
  const figures = useQuery({ queryKey: analyticsKeys.figures, queryFn: fetchAnalytics });
  return (
    <section aria-labelledby="analytics-title">
      <TabHeading
        title="Analytics"
        icon={BarChart3}
        actions={<RefreshButton fetching={figures.isFetching} onRefresh={() => figures.refetch()} />}
      />
      <h3 id="analytics-title" className="sr-only">
        Rally figures
      </h3>
      <QueryStates query={figures} loadingLabel="Loading analytics..." errorMessage="Failed to load analytics">
        {(data) => <Figures data={data} />}
      </QueryStates>
    </section>
  );
}

function Figures({ data }: { data: Analytics }) {
  const days: ChartRow[] = data.registrations_per_day.map((d) => ({ label: dayLabel(d.date), riders: d.riders }));
  const clubs: ChartRow[] = data.clubs.map((c) => ({ label: c.club ?? 'No club', riders: c.riders }));
  const { turnaround } = data;

  return (
    <div className="space-y-3">
      <StatGrid>
        <StatCard label="Riders" value={data.riders} icon={Users} />
        <StatCard label="Verified" value={data.status.verified} icon={ShieldCheck} tone="text-jade-400" />
        <StatCard label="Pending" value={data.status.pending} icon={Hourglass} tone="text-gold-400" />
        <StatCard label="Rejected" value={data.status.rejected} icon={ShieldAlert} tone="text-ember-400" />
      </StatGrid>
      <StatGrid className="lg:grid-cols-2">
        <StatCard
          label="Median turnaround"
          value={durationLabel(turnaround.median_seconds)}
          icon={Timer}
          hint={`Registration or receipt to verification, ${turnaround.verified} verified`}
        />
        <StatCard
          label="90th percentile turnaround"
          value={durationLabel(turnaround.p90_seconds)}
          icon={Clock}
          tone="text-gold-400"
          hint="9 in 10 riders were verified within this"
        />
      </StatGrid>

      <div className="grid grid-cols-1 gap-3 lg:grid-cols-2">
        <ChartCard
          className="lg:col-span-2"
          title="Registrations per day"
          keyHeader="Day (Manila)"
          rows={days}
          color={COLORS.fire}
          columns
        />
        {data.registrations_by_edition && (
          <EditionComparisonCard
            comparison={data.registrations_by_edition}
            colors={{ current: COLORS.fire, previous: COLORS.gold }}
          />
        )}
        <ChartCard
          title="Verification status"
          keyHeader="Status"
          rows={[
            { label: 'Verified', riders: data.status.verified },
            { label: 'Pending', riders: data.status.pending },
            { label: 'Rejected', riders: data.status.rejected },
          ]}
          color={COLORS.jade}
        />
        <ChartCard
          title="Riders per payment method"
          keyHeader="Payment method"
          rows={data.payment_methods.map((m) => ({ label: paymentLabel(m.method), riders: m.riders }))}
          color={COLORS.gold}
        />
        <ChartCard
          title="Riders per category"
          keyHeader="Category"
          rows={data.categories.map((c) => ({ label: categoryLabel(c.category), riders: c.riders }))}
          color={COLORS.fireLight}
        />
        <ChartCard
          title="Riders per route"
          keyHeader="Route"
          rows={data.routes.map((r) => ({ label: routeLabel(r.route), riders: r.riders }))}
          color={COLORS.ember}
        />
        <ChartCard
          className="lg:col-span-2"
          title="Riders per club"
          keyHeader="Club"
          rows={clubs}
          chartRows={clubs.slice(0, TOP_CLUBS)}
          note={
            clubs.length > TOP_CLUBS
              ? `The ${TOP_CLUBS} largest clubs; the table lists all ${clubs.length}.`
              : undefined
          }
          color={COLORS.gold}
        />
        {SIZE_ITEMS.map((item) => (
          <ChartCard
            key={item}
            title={`${KIT_ITEM_LABELS[item]} sizes`}
            keyHeader="Size"
            note="Verified riders, who are the ones given a kit."
            rows={data.sizes[item].map((line) => ({ label: sizeLabel(line), riders: line.riders }))}
            color={COLORS.fireSoft}
          />
        ))}
      </div>
    </div>
  );
}
