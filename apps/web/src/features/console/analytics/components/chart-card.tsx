// One figure of the Analytics tab: a heading, the chart, and the same numbers as a table.
// The table is always there for screen readers (the canvas says nothing to them); "Show as
// table" puts it on screen for anyone who wants the exact figures.
import { Table2 } from 'lucide-react';
import { useId, useMemo, useState } from 'react';
import { buttonStyles } from '../../../../components/ui/button-styles';
import { BarChart, type BarChartProps } from './bar-chart';

export interface ChartRow {
  label: string;
  riders: number;
}

export function ChartCard({
  title,
  rows,
  keyHeader,
  color,
  columns,
  chartRows,
  note,
  className = '',
}: {
  title: string;
  rows: ChartRow[];
  /** The table's first column heading: Day, Category, Club… */
  keyHeader: string;
  color: BarChartProps['color'];
  columns?: boolean;
  /** What the chart draws when it shows fewer rows than the table (the top clubs). */
  chartRows?: ChartRow[];
  note?: string;
  className?: string;
}) {
  const id = useId();
  const [tableShown, setTableShown] = useState(false);
  const drawn = chartRows ?? rows;
  // Keyed by content, so a re-render with equal figures keeps the drawn chart.
  const content = JSON.stringify(drawn);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `content` is `drawn` as text
  const labels = useMemo(() => drawn.map((r) => r.label), [content]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: `content` is `drawn` as text
  const values = useMemo(() => drawn.map((r) => r.riders), [content]);
  const tableId = `${id}-table`;
  const testId = `chart-${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;

  return (
    <figure
      aria-labelledby={`${id}-title`}
      className={`min-w-0 rounded-lg border border-ink-700 bg-ink-900 p-3 sm:p-4 ${className}`}
      data-testid={testId}
    >
      <div className="mb-2 flex flex-wrap items-center justify-between gap-2">
        <h3 id={`${id}-title`} className="text-xl text-bone">
          {title}
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
      {note && <p className="mb-2 text-sm text-ash">{note}</p>}
      {drawn.length === 0 ? (
        <p className="rounded-md border border-dashed border-ink-600 px-3 py-8 text-center text-ash">No riders yet.</p>
      ) : (
        <BarChart labels={labels} values={values} color={color} columns={columns} />
      )}
      <table id={tableId} className={tableShown ? 'mt-3 w-full text-sm' : 'sr-only'}>
        <caption className="sr-only">{title}</caption>
        <thead>
          <tr className="border-b border-ink-700 text-left text-xs uppercase tracking-wide text-ash">
            <th scope="col" className="py-1.5 pr-2 font-bold">
              {keyHeader}
            </th>
            <th scope="col" className="py-1.5 text-right font-bold">
              Riders
            </th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr key={row.label} className="border-b border-ink-800 last:border-0">
              <th scope="row" className="wrap-anywhere py-1.5 pr-2 text-left font-normal text-bone">
                {row.label}
              </th>
              <td className="py-1.5 text-right font-bold tabular-nums text-bone">
                {row.riders.toLocaleString('en-PH')}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  );
}
