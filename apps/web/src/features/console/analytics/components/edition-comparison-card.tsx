// Registrations of this edition against the last one's (DESIGN.md §9): the two as columns
// side by side by day since each one's first entry, and the running totals as a table.
import type { RegistrationsComparison } from '@rally/shared/contracts/editions';
import { comparisonRows } from '../lib/edition-comparison';
import { ChartCard } from './chart-card';

const dash = (n: number | null) => (n === null ? '–' : String(n));

export function EditionComparisonCard({
  comparison,
  colors,
}: {
  comparison: RegistrationsComparison;
  colors: { current: readonly [string, string]; previous: readonly [string, string] };
}) {
  const rows = comparisonRows(comparison);
  const previous = comparison.previous;
  if (!previous) return null;
  return (
    <section
      className="rounded-xl border border-ink-700 bg-ink-900 p-4 lg:col-span-2"
      aria-labelledby="edition-comparison-title"
      data-testid="edition-comparison"
    >
      <h3 id="edition-comparison-title" className="text-2xl text-bone">
        This edition against the last
      </h3>
      <p className="mb-3 text-sm text-ash">
        Registrations per day since each edition's first entry: {comparison.current.edition} and {previous.edition}.
      </p>
      <div className="grid grid-cols-1 gap-3 lg:grid-cols-2">
        <ChartCard
          title={comparison.current.edition}
          keyHeader="Day"
          rows={rows.map((r) => ({ label: `Day ${r.day}`, riders: r.current ?? 0 }))}
          color={colors.current}
          columns
        />
        <ChartCard
          title={previous.edition}
          keyHeader="Day"
          rows={rows.map((r) => ({ label: `Day ${r.day}`, riders: r.previous ?? 0 }))}
          color={colors.previous}
          columns
        />
      </div>
      <div className="mt-3 overflow-x-auto">
        <table className="w-full min-w-[20rem] text-sm">
          <caption className="sr-only">Riders registered by each day, both editions</caption>
          <thead>
            <tr className="text-left text-smoke">
              <th scope="col" className="py-1 pr-3">
                Day
              </th>
              <th scope="col" className="py-1 pr-3">
                {comparison.current.edition}: total
              </th>
              <th scope="col" className="py-1">
                {previous.edition}: total
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.day} className="border-t border-ink-800">
                <th scope="row" className="py-1 pr-3 text-left font-bold text-ash">
                  Day {r.day}
                </th>
                <td className="py-1 pr-3 font-bold text-bone">{dash(r.currentTotal)}</td>
                <td className="py-1 font-bold text-bone">{dash(r.previousTotal)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
