import { categoryDisplay } from '@rally/shared/catalog/registration';
import type { KitParticipant } from '@rally/shared/contracts/kit-tracking';
import { Eye, PackageCheck } from 'lucide-react';
import { formatPeso } from '../../../../lib/format';
import { ConsoleTable, type TableHeader } from '../../components/console-table';
import { sizeText } from '../../components/display';
import { usePastEdition } from '../../components/past-edition-context';
import { KIT_CHECKS, kitProgress } from './kit-status';
import { NotesCell } from './notes-cell';

// Headers may wrap: the table has ten columns and must fit beside the console's sidebar.
const th = 'px-2 py-2 text-left text-xs font-bold uppercase tracking-wide text-ash';
const td = 'px-2 py-3 align-middle';
const HEADERS: TableHeader[] = [
  'Participant',
  'Rider #',
  'Category',
  'Payment (₱)',
  'Sizes',
  ...KIT_CHECKS.map((c) => ({ key: c.field, label: c.label, className: `${th} w-16 text-center` })),
  'Notes',
  'Actions',
];

export function KitDot({ participant }: { participant: KitParticipant }) {
  const progress = kitProgress(participant);
  return (
    <span
      role="img"
      title={progress.text}
      aria-label={progress.text}
      data-testid="kit-dot"
      data-complete={progress.complete}
      className={`inline-block size-3.5 shrink-0 rounded-full ring-2 ring-ink-900 ${
        progress.complete ? 'bg-jade-400' : 'bg-fire-500'
      }`}
    />
  );
}

/**
 * "Hand over all": the three items in one tap. Shown while the kit is incomplete; the
 * tab offers an undo afterwards instead of asking first.
 */
export function HandOverAllButton({
  participant,
  busy,
  onHandOver,
  className = '',
}: {
  participant: KitParticipant;
  busy: boolean;
  onHandOver: (participant: KitParticipant) => void;
  className?: string;
}) {
  // A past edition's kits were handed over (or not) back then.
  const past = usePastEdition() !== null;
  if (past || kitProgress(participant).complete) return null;
  return (
    <button
      type="button"
      onClick={() => onHandOver(participant)}
      disabled={busy}
      aria-label={`Hand over all three kit items to ${participant.participant_name}`}
      data-testid="hand-over-all"
      className={`inline-flex min-h-11 items-center justify-center gap-1.5 rounded-md bg-fire-500 px-3 text-sm font-bold text-ink-950 transition-colors hover:bg-fire-400 disabled:cursor-wait disabled:opacity-60 ${className}`.trim()}
    >
      <PackageCheck className="size-5 shrink-0" aria-hidden="true" />
      {busy ? 'Recording…' : 'Hand over all'}
    </button>
  );
}

/** Custom sizes can be long; the full text stays in the tooltip and the details modal. */
function SizeLine({ label, text }: { label: string; text: string }) {
  return (
    <p className="max-w-52 truncate whitespace-nowrap sm:max-w-30" title={`${label}: ${text}`}>
      <span className="text-smoke">{label}:</span> <span className="font-bold text-bone">{text}</span>
    </p>
  );
}

export function KitTable({
  participants,
  busyId,
  onToggle,
  onHandOver,
  onView,
}: {
  participants: KitParticipant[];
  busyId: string | null;
  onToggle: (participant: KitParticipant, field: (typeof KIT_CHECKS)[number]['field']) => void;
  onHandOver: (participant: KitParticipant) => void;
  onView: (participant: KitParticipant) => void;
}) {
  const past = usePastEdition() !== null;
  return (
    <ConsoleTable headers={HEADERS} minWidth="sm:min-w-[920px]" headerClassName={th} stackOnPhone>
      {participants.map((p) => (
        <tr key={p.user_id} className="bg-ink-900 hover:bg-ink-850" data-testid="kit-row" data-user-id={p.user_id}>
          <td className={`${td} sm:max-w-44`}>
            <div className="min-w-0">
              <p className="font-bold text-bone">{p.kit_name || p.participant_name}</p>
              {p.kit_name && <p className="text-xs text-ash">{p.participant_name}</p>}
              <p className="truncate text-xs text-smoke" title={p.email}>
                {p.email}
              </p>
            </div>
          </td>
          <td data-label="Rider #" className={`${td} font-display text-lg text-fire-300`}>
            {p.rider_number === null ? '—' : `#${p.rider_number}`}
          </td>
          <td data-label="Category" className={td}>
            <span className="text-xs font-bold text-gold-300">
              {categoryDisplay(p.category, { unsetAs: 'not-set' }).name}
            </span>
          </td>
          <td data-label="Payment" className={`${td} whitespace-nowrap text-bone`}>
            {p.payment_amount === null ? '—' : formatPeso(p.payment_amount)}
          </td>
          <td data-label="Sizes" className={`${td} text-xs text-ash`}>
            <div>
              <SizeLine label="Shirt" text={sizeText(p.sizes.tshirt, p.sizes.custom_tshirt)} />
              <SizeLine label="Vest" text={sizeText(p.sizes.vest, p.sizes.custom_vest)} />
              <SizeLine label="Sleeve" text={sizeText(p.sizes.finisher_sleeve, p.sizes.custom_finisher_sleeve)} />
            </div>
          </td>
          {KIT_CHECKS.map((c) => (
            <td key={c.field} data-label={c.label} className={`${td} text-center`}>
              {/* The label widens the tap target around the small box. */}
              <label className="-my-1.5 inline-flex size-11 cursor-pointer items-center justify-center max-sm:-ml-2.5">
                <input
                  type="checkbox"
                  checked={p[c.field]}
                  disabled={busyId === p.user_id || past}
                  onChange={() => onToggle(p, c.field)}
                  aria-label={`${c.label} given to ${p.participant_name}`}
                  className="size-6 cursor-pointer accent-fire-500 disabled:cursor-wait"
                />
              </label>
            </td>
          ))}
          <td data-label="Notes" className={td}>
            <NotesCell userId={p.user_id} name={p.participant_name} notes={p.kit_notes} />
          </td>
          <td className={td}>
            <div className="flex w-full flex-wrap items-center gap-2 sm:grid sm:w-auto sm:grid-cols-[auto_auto]">
              <button
                type="button"
                onClick={() => onView(p)}
                aria-label={`View kit details of ${p.participant_name}`}
                title="View details"
                className="flex min-h-11 items-center justify-center gap-1.5 rounded-md border border-ink-600 px-3 text-sm font-bold text-ash transition-colors hover:border-fire-500 hover:text-fire-300 sm:size-10 sm:min-h-0 sm:px-0"
              >
                <Eye className="size-5" aria-hidden="true" />
                <span className="sm:hidden">View kit details</span>
              </button>
              <HandOverAllButton
                participant={p}
                busy={busyId === p.user_id}
                onHandOver={onHandOver}
                className="max-sm:order-first max-sm:basis-full sm:order-last sm:col-span-2 sm:min-h-10 sm:w-[4.5rem] sm:px-1 sm:text-xs sm:leading-tight sm:[&>svg]:hidden"
              />
              <KitDot participant={p} />
            </div>
          </td>
        </tr>
      ))}
    </ConsoleTable>
  );
}
