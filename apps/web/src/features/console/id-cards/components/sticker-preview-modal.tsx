import { categoryDisplay } from '@rally/shared/catalog/registration';
import { useQuery } from '@tanstack/react-query';
import { Printer, QrCode } from 'lucide-react';
import { buttonStyles } from '../../../../components/ui/button-styles';
import { Modal } from '../../../../components/ui/modal';
import { DetailField } from '../../components/detail-field';
import { ErrorPanel, LoadingPanel } from '../../components/list-states';
import { fetchCardDetail, idCardKeys, openStickerPage } from '../api/id-cards-api';
import { useMarkPrinted } from './use-mark-printed';

export function StickerPreviewModal({ userId, onClose }: { userId: string | null; onClose: () => void }) {
  const detail = useQuery({
    queryKey: idCardKeys.detail(userId ?? ''),
    queryFn: () => fetchCardDetail(userId as string),
    enabled: userId !== null,
  });
  const mark = useMarkPrinted();
  const d = detail.data;
  const printed = (d?.print_count ?? 0) > 0;

  return (
    <Modal
      open={userId !== null}
      onClose={onClose}
      title={detail.isSuccess ? (printed ? 'Already Printed' : 'Ready to Print') : 'QR Sticker'}
      className="max-w-xl"
      footer={
        d && (
          <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
            <button
              type="button"
              onClick={() => mark.mutate(d.id)}
              disabled={mark.isPending}
              className={buttonStyles('secondary')}
            >
              <Printer className="size-4" aria-hidden="true" />
              {mark.isPending ? 'Marking...' : 'Mark as Printed'}
            </button>
            <button type="button" onClick={() => openStickerPage(d.id)} className={buttonStyles('primary')}>
              <QrCode className="size-4" aria-hidden="true" />
              Generate QR Sticker
            </button>
          </div>
        )
      }
    >
      {detail.isPending ? (
        <LoadingPanel label="Loading rider..." />
      ) : detail.isError ? (
        <ErrorPanel
          message="Failed to load user details"
          detail={detail.error.message}
          onRetry={() => detail.refetch()}
        />
      ) : d ? (
        <div className="space-y-4">
          <div
            className={`rounded-md border px-3 py-2 text-sm font-bold ${
              printed ? 'border-jade-400 bg-jade-600/15 text-jade-400' : 'border-gold-500 bg-gold-500/10 text-gold-300'
            }`}
          >
            {printed
              ? `Printed ${d.print_count} time${d.print_count === 1 ? '' : 's'}${
                  d.printed_at
                    ? `, last on ${new Date(d.printed_at).toLocaleString('en-PH', { dateStyle: 'medium', timeStyle: 'short' })}`
                    : ''
                }`
              : 'This sticker has not been printed yet.'}
          </div>
          <div>
            <p className="font-display text-3xl text-fire-300">{d.kit_name || 'No Kit Name'}</p>
            <p className="text-ash">{`${d.first_name} ${d.last_name}`.trim()}</p>
          </div>
          <dl className="grid grid-cols-1 gap-4 sm:grid-cols-2">
            <DetailField label="Motorcycle">{d.motorcycle_model || 'Not specified'}</DetailField>
            <DetailField label="Category">{categoryDisplay(d.category).name}</DetailField>
            <DetailField label="Rider code">
              <span className="font-mono text-gold-300">{d.rider_code}</span>
            </DetailField>
            <DetailField label="Rider number">{d.rider_number === null ? 'N/A' : `#${d.rider_number}`}</DetailField>
            <DetailField label="Emergency contact">
              {d.emergency_contact_name || d.emergency_contact_number
                ? [d.emergency_contact_name, d.emergency_contact_number].filter(Boolean).join(' · ')
                : 'Not Available'}
            </DetailField>
            <DetailField label="Blood type">{d.blood_type || 'Not specified'}</DetailField>
            <DetailField label="Allergies">{d.allergies || 'No known allergies'}</DetailField>
            <DetailField label="Medical conditions">{d.medical_conditions || 'None recorded'}</DetailField>
          </dl>
        </div>
      ) : null}
    </Modal>
  );
}
