import { categoryDisplay } from '@rally/shared/catalog/registration';
import type { IdCardUser } from '@rally/shared/contracts/id-cards';
import { Printer, QrCode } from 'lucide-react';
import { ConsoleTable } from '../../components/console-table';
import { PrintStatus } from './print-status';

const th = 'whitespace-nowrap px-3 py-2 text-left text-xs font-bold uppercase tracking-wide text-ash';
const td = 'px-3 py-3 align-middle';
// Icons beside the table; on a phone's card each action also shows its words, a thumb wide.
const action =
  'flex min-h-11 flex-1 items-center justify-center gap-2 whitespace-nowrap rounded-md border border-ink-600 px-3 text-sm font-bold text-ash transition-colors hover:border-fire-500 hover:text-fire-300 disabled:cursor-wait disabled:opacity-50 sm:size-10 sm:min-h-0 sm:flex-none sm:px-0';

export function CardsTable({
  users,
  busyId,
  selected,
  onToggle,
  onPreview,
  onMarkPrinted,
}: {
  users: IdCardUser[];
  busyId: string | null;
  /** Riders picked for a sticker sheet. */
  selected: ReadonlySet<string>;
  onToggle: (u: IdCardUser) => void;
  onPreview: (u: IdCardUser) => void;
  onMarkPrinted: (u: IdCardUser) => void;
}) {
  return (
    <ConsoleTable
      headers={['Sheet', 'Participant', 'Contact', 'Category', 'Print status', 'Actions']}
      minWidth="sm:min-w-[820px]"
      headerClassName={th}
      stackOnPhone
    >
      {users.map((u) => {
        const name = `${u.first_name} ${u.last_name}`.trim();
        return (
          <tr key={u.id} className="bg-ink-900 hover:bg-ink-850" data-testid="id-card-row" data-user-id={u.id}>
            <td className={td}>
              {/* On a phone's card the box comes with its words, and the label is the tap target. */}
              <label className="inline-flex min-h-11 cursor-pointer items-center gap-3 text-sm font-bold text-ash sm:min-h-0">
                <input
                  type="checkbox"
                  checked={selected.has(u.id)}
                  onChange={() => onToggle(u)}
                  className="size-6 shrink-0 accent-fire-500"
                />
                <span className="sm:sr-only">
                  Add <span className="sr-only">{name} </span>to the sticker sheet
                </span>
              </label>
            </td>
            <td className={td}>
              <div className="min-w-0">
                <p className="font-bold text-bone">{u.kit_name || name}</p>
                {u.kit_name && <p className="text-xs text-ash">{name}</p>}
                <p className="text-xs font-bold text-fire-300">
                  {u.rider_number === null ? 'No rider #' : `#${u.rider_number}`}
                </p>
              </div>
            </td>
            <td data-label="Contact" className={`${td} text-xs text-ash`}>
              <div className="min-w-0">
                <p className="truncate sm:max-w-60" title={u.email}>
                  {u.email}
                </p>
                <p>{u.phone_number || 'No phone'}</p>
              </div>
            </td>
            <td data-label="Category" className={td}>
              <span className="whitespace-nowrap text-xs font-bold text-gold-300">
                {categoryDisplay(u.category).name}
              </span>
            </td>
            <td data-label="Print status" className={td}>
              <PrintStatus count={u.print_count} printedAt={u.printed_at} />
            </td>
            <td className={td}>
              <div className="flex w-full flex-wrap gap-2 sm:w-auto sm:flex-nowrap">
                <button
                  type="button"
                  onClick={() => onPreview(u)}
                  className={action}
                  aria-label={`View QR sticker of ${name}`}
                  title="View QR sticker"
                >
                  <QrCode className="size-5" aria-hidden="true" />
                  <span className="sm:hidden">View QR sticker</span>
                </button>
                <button
                  type="button"
                  onClick={() => onMarkPrinted(u)}
                  disabled={busyId === u.id}
                  className={action}
                  aria-label={`Mark as printed: the sticker of ${name}`}
                  title="Mark as printed"
                >
                  <Printer className="size-5" aria-hidden="true" />
                  <span className="sm:hidden">Mark as printed</span>
                </button>
              </div>
            </td>
          </tr>
        );
      })}
    </ConsoleTable>
  );
}
