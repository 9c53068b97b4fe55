import { categoryDisplay } from '@rally/shared/catalog/registration';
import type { KitParticipant } from '@rally/shared/contracts/kit-tracking';
import { Undo2 } from 'lucide-react';
import { buttonStyles } from '../../../../components/ui/button-styles';
import { Modal } from '../../../../components/ui/modal';
import { formatPeso } from '../../../../lib/format';
import { CloseFooter, DetailField } from '../../components/detail-field';
import { sizeText } from '../../components/display';
import { KIT_CHECKS, kitProgress } from './kit-status';
import { HandOverAllButton } from './kit-table';

const dateTime = (iso: string | null) =>
  iso ? new Date(iso).toLocaleString('en-PH', { dateStyle: 'medium', timeStyle: 'short' }) : 'Not available';

export function KitDetailsModal({
  participant,
  busy,
  onHandOver,
  onUndo,
  onClose,
}: {
  participant: KitParticipant | null;
  busy: boolean;
  onHandOver: (participant: KitParticipant) => void;
  /** Set while a "Hand over all" of this rider can still be taken back. */
  onUndo: (() => void) | null;
  onClose: () => void;
}) {
  const p = participant;
  return (
    <Modal
      open={p !== null}
      onClose={onClose}
      title="Participant Kit Details"
      className="max-w-2xl"
      footer={<CloseFooter onClose={onClose} />}
    >
      {p && (
        <div className="space-y-5">
          <div>
            <p className="font-display text-3xl text-fire-300">{p.kit_name || 'No Kit Name'}</p>
            <p className="text-ash">{p.participant_name}</p>
            <p className="mt-1 text-sm font-bold text-gold-300">{kitProgress(p).text}</p>
          </div>
          <dl className="grid grid-cols-1 gap-4 sm:grid-cols-2">
            <DetailField label="Email">{p.email}</DetailField>
            <DetailField label="Phone">{p.phone_number || 'Not provided'}</DetailField>
            <DetailField label="Rider number">{p.rider_number === null ? 'Not Set' : `#${p.rider_number}`}</DetailField>
            <DetailField label="Category">{categoryDisplay(p.category, { unsetAs: 'not-set' }).name}</DetailField>
            <DetailField label="Payment amount">
              {p.payment_amount === null ? 'N/A' : formatPeso(p.payment_amount)}
            </DetailField>
            <DetailField label="Club / team">{p.club_name || 'No Team'}</DetailField>
            <DetailField label="Verified date">{dateTime(p.verification_date)}</DetailField>
            <DetailField label="Verified by">{p.verified_by || 'Not recorded'}</DetailField>
          </dl>
          <section>
            <h3 className="mb-2 text-lg text-bone">Kit status</h3>
            <ul className="grid grid-cols-1 gap-2 sm:grid-cols-3">
              {KIT_CHECKS.map((c) => {
                const given = p[c.field];
                const at = p[`${c.field}_at` as const];
                return (
                  <li
                    key={c.field}
                    className={`rounded-md border px-3 py-2 ${given ? 'border-jade-400 bg-jade-600/15' : 'border-ink-600 bg-ink-850'}`}
                  >
                    <p className="text-xs font-bold uppercase tracking-wide text-ash">{c.label}</p>
                    <p className={`font-bold ${given ? 'text-jade-400' : 'text-fire-300'}`}>
                      {given ? 'Given' : 'Pending'}
                    </p>
                    {given && at && <p className="text-xs text-smoke">{dateTime(at)}</p>}
                  </li>
                );
              })}
            </ul>
            <HandOverAllButton participant={p} busy={busy} onHandOver={onHandOver} className="mt-3 w-full sm:w-auto" />
            {onUndo && (
              <button
                type="button"
                onClick={onUndo}
                disabled={busy}
                className={buttonStyles('secondary', 'md', 'mt-3 w-full sm:w-auto')}
              >
                <Undo2 className="size-4" aria-hidden="true" />
                Undo hand-over
              </button>
            )}
          </section>
          <section>
            <h3 className="mb-2 text-lg text-bone">Sizes</h3>
            <dl className="grid grid-cols-1 gap-4 sm:grid-cols-3">
              <DetailField label="T-shirt">{sizeText(p.sizes.tshirt, p.sizes.custom_tshirt)}</DetailField>
              <DetailField label="Vest">{sizeText(p.sizes.vest, p.sizes.custom_vest)}</DetailField>
              <DetailField label="Finisher sleeve">
                {sizeText(p.sizes.finisher_sleeve, p.sizes.custom_finisher_sleeve)}
              </DetailField>
            </dl>
          </section>
          <section>
            <h3 className="mb-2 text-lg text-bone">Notes</h3>
            <p className="whitespace-pre-wrap rounded-md border border-ink-700 bg-ink-850 px-3 py-2 text-ash">
              {p.kit_notes || 'No notes'}
            </p>
            {p.kit_last_updated && (
              <p className="mt-1 text-xs text-smoke">Last updated {dateTime(p.kit_last_updated)}</p>
            )}
          </section>
        </div>
      )}
    </Modal>
  );
}
