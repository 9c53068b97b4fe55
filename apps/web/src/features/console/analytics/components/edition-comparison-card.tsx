// Registrations of this edition against the last one's (DESIGN.md §9): both as columns side
// by side, day by day since each one's first entry, where this edition stands in a sentence,
// and the figures with their running totals as a table ("Show as table", as every chart).
import type { RegistrationsComparison } from '@rally/shared/contracts/editions';
import { Table2 } from 'lucide-react';
import { useId, useMemo, useState } from 'react';
import { buttonStyles } from '../../../../components/ui/button-styles';
import { comparisonRows, comparisonSummary } from '../lib/edition-comparison';
import { BarChart, type BarChartProps } from './bar-chart';

type Color = BarChartProps['color'];

const count = (n: number | null) => (n === null ? '–' : n.toLocaleString('en-PH'));

export function EditionComparisonCard({
  comparison,
  colors,
}: {
  comparison: RegistrationsComparison;
  colors: { current: Color; previous: Color };
}) {
  const id = useId();
  const [tableShown, setTableShown] = useState(false);
  // Keyed by content, so a re-render with equal figures keeps the drawn chart.
  const content = JSON.stringify(comparison);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `content` is `comparison` as text
  const rows = useMemo(() => comparisonRows(comparison), [content]);
  const labels = useMemo(() => rows.map((r) => `Day ${r.day}`), [rows]);
  const current = useMemo(() => rows.map((r) => r.current ?? 0), [rows]);
  const compare = useMemo(
    () => ({ values: rows.map((r) => r.previous ?? 0), color: colors.previous }),
    [rows, colors.previous],
  );
  const previous = comparison.previous;
  if (!previous) return null;
  const names = { current: comparison.current.edition, previous: previous.edition };
  const tableId = `${id}-table`;

  return (
    <figure
      aria-labelledby={`${id}-title`}
      className="min-w-0 rounded-lg border border-ink-700 bg-ink-900 p-3 sm:p-4 lg:col-span-2"
      data-testid="edition-comparison"
    >
      <div className="mb-2 flex flex-wrap items-center justify-between gap-2">
        <h3 id={`${id}-title`} className="text-xl text-bone">
          This edition against the last
        </h3>
        <button
          type="button"
          className={buttonStyles('ghost', 'md', 'px-3 text-sm')}
          aria-expanded={tableShown}
          aria-controls={tableId}
          onClick={() => setTableShown((shown) => !shown)}
        >
          <Table2 className="size-4" aria-hidden="true" />
          {tableShown ? 'Hide table' : 'Show as table'}
        </button>
      </div>
      <p className="text-sm text-ash">Registrations per day, counted from each edition's first entry.</p>
      <p className="mt-1 font-bold text-bone" data-testid="edition-comparison-summary">
        {comparisonSummary(comparison)}
      </p>
      <ul className="my-3 flex flex-wrap gap-x-5 gap-y-1 text-sm text-bone" aria-label="Editions compared">
        <Legend name={names.current} color={colors.current} />
        <Legend name={names.previous} color={colors.previous} />
      </ul>
      {rows.length === 0 ? (
        <p className="rounded-md border border-dashed border-ink-600 px-3 py-8 text-center text-ash">No riders yet.</p>
      ) : (
        <BarChart labels={labels} values={current} color={colors.current} compare={compare} columns />
      )}
      <div className={tableShown ? 'mt-3 overflow-x-auto' : 'sr-only'}>
        <table id={tableId} className="w-full min-w-[18rem] text-sm">
          <caption className="sr-only">
            Registrations per day of {names.current} and {names.previous}
          </caption>
          <thead>
            <tr className="text-left text-xs uppercase tracking-wide text-ash">
              <th scope="col" rowSpan={2} className="py-1.5 pr-2 align-bottom font-bold">
                Day
              </th>
              <th scope="colgroup" colSpan={2} className="wrap-anywhere py-1.5 pr-2 text-right font-bold">
                {names.current}
              </th>
              <th scope="colgroup" colSpan={2} className="wrap-anywhere py-1.5 text-right font-bold">
                {names.previous}
              </th>
            </tr>
            <tr className="border-b border-ink-700 text-right text-xs uppercase tracking-wide text-smoke">
              <th scope="col" className="py-1 pr-2 font-bold">
                That day
              </th>
              <th scope="col" className="py-1 pr-2 font-bold">
                So far
              </th>
              <th scope="col" className="py-1 pr-2 font-bold">
                That day
              </th>
              <th scope="col" className="py-1 font-bold">
                So far
              </th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.day} className="border-b border-ink-800 last:border-0">
                <th scope="row" className="py-1.5 pr-2 text-left font-normal whitespace-nowrap text-bone">
                  Day {r.day}
                </th>
                <td className="py-1.5 pr-2 text-right tabular-nums text-bone">{count(r.current)}</td>
                <td className="py-1.5 pr-2 text-right font-bold tabular-nums text-bone">{count(r.currentTotal)}</td>
                <td className="py-1.5 pr-2 text-right tabular-nums text-bone">{count(r.previous)}</td>
                <td className="py-1.5 text-right font-bold tabular-nums text-bone">{count(r.previousTotal)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </figure>
  );
}

function Legend({ name, color }: { name: string; color: Color }) {
  return (
    <li className="flex min-w-0 items-center gap-2">
      <span className="size-3 shrink-0 rounded-sm" style={{ background: `var(${color[0]}, ${color[1]})` }} />
      <span className="wrap-anywhere font-bold">{name}</span>
    </li>
  );
}
