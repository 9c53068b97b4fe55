import { categoryDisplay } from '@rally/shared/catalog/registration';
import type { PublicProfile } from '@rally/shared/contracts/profiles';
import { formatRiderNumber } from '../../../lib/format';
import { roleLabel } from './rider-badges';

export function StatsPanel({ profile, fires, comments }: { profile: PublicProfile; fires: number; comments: number }) {
  const verified = profile.verificationStatus === 'verified';
  const category = categoryDisplay(profile.category, { gender: profile.gender });
  const stats: Array<{ label: string; value: string; tone?: string }> = [
    { label: 'Rider Number', value: `#${formatRiderNumber(profile.riderNumber)}` },
    { label: 'Fires Received', value: String(fires), tone: 'text-fire-400' },
    { label: 'Comments', value: String(comments) },
    {
      label: 'Status',
      value: verified ? 'VERIFIED' : 'NOT VERIFIED',
      tone: verified ? 'text-jade-400' : 'text-ember-400',
    },
    { label: 'Category', value: category.name },
    { label: 'Rank', value: roleLabel(profile.role) },
  ];
  return (
    <section aria-labelledby="warrior-stats" className="rounded-xl border border-ink-700 bg-ink-900 p-4 sm:p-6">
      <h2 id="warrior-stats" className="text-2xl text-fire-300">
        Warrior Stats
      </h2>
      <dl className="mt-4 grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-2">
        {stats.map((s) => (
          <div key={s.label} className="rounded-lg border border-ink-700 bg-ink-850 px-3 py-3">
            <dt className="text-xs font-bold uppercase tracking-wide text-smoke">{s.label}</dt>
            <dd className={`mt-1 font-display text-xl tracking-wide sm:text-2xl ${s.tone ?? 'text-bone'}`}>
              {s.value}
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
