import type { ReactNode } from 'react';

/** Header and body cell classes of the console's wide tables. */
export const thClass = 'whitespace-nowrap px-2.5 py-2 text-left text-xs font-bold uppercase tracking-wide text-ash';
export const tdClass = 'px-2.5 py-3 align-middle';

/** A header given as plain text takes the table's header class. */
export type TableHeader = string | { key: string; label: ReactNode; className: string };

// Below the sm breakpoint a stacking table becomes one card per row: the header row is
// hidden and every cell shows its column's name (its data-label) before its content.
// The table itself turns block too, so a long word (an email) cannot widen it past the phone.
// The names' box is as wide as the longest ("VERIFICATION"), and they break between words
// only: the body's overflow-wrap: anywhere once read "VERIFICATIO N".
const STACKED =
  'max-sm:block max-sm:[&_thead]:hidden max-sm:[&_tbody]:block max-sm:[&_tr]:block max-sm:[&_tr]:px-3 max-sm:[&_tr]:py-2 ' +
  'max-sm:[&_td]:flex max-sm:[&_td]:items-center max-sm:[&_td]:gap-3 max-sm:[&_td]:px-0 max-sm:[&_td]:py-2 ' +
  'max-sm:[&_td]:text-left max-sm:[&_td[data-label]]:before:w-28 max-sm:[&_td[data-label]]:before:shrink-0 ' +
  'max-sm:[&_td[data-label]]:before:wrap-break-word ' +
  'max-sm:[&_td[data-label]]:before:text-xs max-sm:[&_td[data-label]]:before:font-bold ' +
  'max-sm:[&_td[data-label]]:before:uppercase max-sm:[&_td[data-label]]:before:tracking-wide ' +
  'max-sm:[&_td[data-label]]:before:text-ash max-sm:[&_td[data-label]]:before:content-[attr(data-label)]';

/**
 * The frame of a console list table: it scrolls sideways inside its border rather than
 * squeezing columns, since every table is wider than a phone. A table a marshal works
 * through on a phone (verifications, kit hand-over) can instead stack into cards there:
 * give it `stackOnPhone`, an `sm:`-prefixed minWidth and a data-label on every cell.
 */
export function ConsoleTable({
  headers,
  minWidth,
  headerClassName = thClass,
  className = '',
  stackOnPhone = false,
  children,
}: {
  headers: ReadonlyArray<TableHeader>;
  /** A Tailwind min-width class, e.g. 'min-w-[900px]' (or 'sm:min-w-[900px]' when stacking). */
  minWidth: string;
  headerClassName?: string;
  className?: string;
  stackOnPhone?: boolean;
  /** The body rows. */
  children: ReactNode;
}) {
  return (
    <div className={`${className} overflow-x-auto rounded-lg border border-ink-700`.trim()}>
      <table className={`w-full ${minWidth} border-collapse text-sm ${stackOnPhone ? STACKED : ''}`.trim()}>
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
