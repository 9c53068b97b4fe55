import { categoryDisplay } from '@rally/shared/catalog';
import type { IdCardUser } from '@rally/shared/contracts/id-cards';
import { Printer, QrCode } from 'lucide-react';
import { ConsoleTable } from '../../components/console-table';
import { PrintStatus } from './print-status';

const th = 'whitespace-nowrap px-3 py-2 text-left text-xs font-bold uppercase tracking-wide text-ash';
const td = 'px-3 py-3 align-middle';
const action =
  'flex size-10 items-center justify-center rounded-md border border-ink-600 text-ash transition-colors hover:border-fire-500 hover:text-fire-300 disabled:cursor-wait disabled:opacity-50';

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
      minWidth="min-w-[820px]"
      headerClassName={th}
    >
      {users.map((u) => {
        const name = `${u.first_name} ${u.last_name}`.trim();
        return (
          <tr key={u.id} className="bg-ink-900 hover:bg-ink-850" data-testid="id-card-row" data-user-id={u.id}>
            <td className={td}>
              <input
                type="checkbox"
                checked={selected.has(u.id)}
                onChange={() => onToggle(u)}
                aria-label={`Add ${name} to the sticker sheet`}
                className="size-6 accent-fire-500"
              />
            </td>
            <td className={td}>
              <p className="font-bold text-bone">{u.kit_name || name}</p>
              {u.kit_name && <p className="text-xs text-ash">{name}</p>}
              <p className="text-xs font-bold text-fire-300">
                {u.rider_number === null ? 'No rider #' : `#${u.rider_number}`}
              </p>
            </td>
            <td className={`${td} text-xs text-ash`}>
              <p className="max-w-60 truncate">{u.email}</p>
              <p>{u.phone_number || 'No phone'}</p>
            </td>
            <td className={td}>
              <span className="whitespace-nowrap text-xs font-bold text-gold-300">
                {categoryDisplay(u.category).name}
              </span>
            </td>
            <td className={td}>
              <PrintStatus count={u.print_count} printedAt={u.printed_at} />
            </td>
            <td className={td}>
              <div className="flex gap-2">
                <button
                  type="button"
                  onClick={() => onPreview(u)}
                  className={action}
                  aria-label={`View QR sticker of ${name}`}
                  title="View QR sticker"
                >
                  <QrCode className="size-5" aria-hidden="true" />
                </button>
                <button
                  type="button"
                  onClick={() => onMarkPrinted(u)}
                  disabled={busyId === u.id}
                  className={action}
                  aria-label={`Mark the sticker of ${name} as printed`}
                  title="Mark as printed"
                >
                  <Printer className="size-5" aria-hidden="true" />
                </button>
              </div>
            </td>
          </tr>
        );
      })}
    </ConsoleTable>
  );
}
