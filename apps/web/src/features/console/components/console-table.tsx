import type { ReactNode } from 'react';

/** Header and body cell classes of the console's wide tables. */
export const thClass = 'whitespace-nowrap px-2.5 py-2 text-left text-xs font-bold uppercase tracking-wide text-ash';
export const tdClass = 'px-2.5 py-3 align-middle';

/** A header given as plain text takes the table's header class. */
export type TableHeader = string | { key: string; label: ReactNode; className: string };

/**
 * The frame of a console list table: it scrolls sideways inside its border rather than
 * squeezing columns, since every table is wider than a phone.
 */
export function ConsoleTable({
  headers,
  minWidth,
  headerClassName = thClass,
  className = '',
  children,
}: {
  headers: ReadonlyArray<TableHeader>;
  /** A Tailwind min-width class, e.g. 'min-w-[900px]'. */
  minWidth: string;
  headerClassName?: string;
  className?: string;
  /** The body rows. */
  children: ReactNode;
}) {
  return (
    <div className={`${className} overflow-x-auto rounded-lg border border-ink-700`.trim()}>
      <table className={`w-full ${minWidth} border-collapse text-sm`}>
        <thead className="bg-ink-850">
          <tr>
            {headers.map((h) =>
              typeof h === 'string' ? (
                <th key={h} scope="col" className={headerClassName}>
                  {h}
                </th>
              ) : (
                <th key={h.key} scope="col" className={h.className}>
                  {h.label}
                </th>
              ),
            )}
          </tr>
        </thead>
        <tbody className="divide-y divide-ink-700">{children}</tbody>
      </table>
    </div>
  );
}
