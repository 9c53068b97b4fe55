import type { AdminUser } from '@rally/shared/contracts/users';
import { Eye, ImageIcon, KeyRound, Receipt } from 'lucide-react';
import type { ReactNode } from 'react';
import { ProfileAvatar } from '../../../public-profile/components/profile-avatar';
import { ConsoleTable, tdClass as td } from '../../components/console-table';
import { callNameOf, fullNameOf, sizeText, staffCategory } from '../../components/display';
import { ProgressBadge, VerificationBadge } from '../../components/staff-badges';

function RowButton({
  label,
  onClick,
  disabled,
  children,
}: {
  label: string;
  onClick: () => void;
  disabled?: boolean;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      onClick={onClick}
      disabled={disabled}
      aria-label={label}
      title={label}
      className="inline-flex min-h-9 items-center gap-1 rounded-md border border-ink-600 px-2 text-xs font-bold text-ash hover:border-fire-500 hover:text-fire-300 disabled:opacity-50"
    >
      {children}
    </button>
  );
}

export function MasterlistTable({
  participants,
  canReset,
  resettingId,
  onView,
  onReceipt,
  onPhoto,
  onReset,
}: {
  participants: AdminUser[];
  canReset: boolean;
  resettingId: string | null;
  onView: (u: AdminUser) => void;
  onReceipt: (u: AdminUser) => void;
  onPhoto: (u: AdminUser) => void;
  onReset: (u: AdminUser) => void;
}) {
  return (
    <ConsoleTable
      headers={[
        'Participant',
        'Category',
        'Rider #',
        'Verification',
        'Team',
        'Payment',
        'T-shirt',
        'Bike Check',
        'Rider Kit',
        'Contact',
        'Actions',
      ]}
      minWidth="min-w-[1250px]"
      className="relative"
    >
      {participants.map((p) => {
        const name = callNameOf(p);
        const category = staffCategory(p);
        return (
          <tr key={p.id} className="bg-ink-900 hover:bg-ink-850" data-user-id={p.id}>
            <td className={td}>
              <div className="flex items-center gap-3">
                <ProfileAvatar userId={p.id} name={name} hasImage={p.has_profile_image} className="size-10" />
                <div className="min-w-0">
                  <p className="font-bold text-bone">{p.kit_name || 'No Kit Name'}</p>
                  <p className="text-ash">{fullNameOf(p)}</p>
                </div>
              </div>
            </td>
            <td className={td}>
              <span className={`font-bold ${p.category ? 'text-gold-300' : 'text-smoke'}`}>{category.name}</span>
              <span className="block text-xs text-smoke">{category.distance}</span>
            </td>
            <td className={`${td} font-display text-lg`}>#{p.rider_number}</td>
            <td className={td}>
              <VerificationBadge status={p.verification_status} />
            </td>
            <td className={`${td} max-w-[9rem] text-ash`}>{p.club_name || 'No Team'}</td>
            <td className={`${td} whitespace-nowrap`}>
              <span className={p.has_payment_receipt ? 'font-bold text-jade-400' : 'text-ember-400'}>
                {p.has_payment_receipt ? 'Receipt Uploaded' : 'No Receipt'}
              </span>
            </td>
            <td className={`${td} text-bone`}>{sizeText(p.tshirt_size, p.custom_tshirt_size)}</td>
            <td className={td}>
              <ProgressBadge value={p.bike_check_status} />
            </td>
            <td className={td}>
              <ProgressBadge value={p.rider_kit_status} />
            </td>
            <td className={td}>
              <p className="whitespace-nowrap text-bone">{p.phone_number || '—'}</p>
              <p className="max-w-[13rem] truncate text-xs text-smoke" title={p.email}>
                {p.email}
              </p>
            </td>
            <td className={td}>
              <div className="grid w-max grid-cols-2 gap-1">
                <RowButton label={`View ${name}`} onClick={() => onView(p)}>
                  <Eye className="size-4" aria-hidden="true" />
                  View
                </RowButton>
                <RowButton label={`Receipt of ${name}`} onClick={() => onReceipt(p)}>
                  <Receipt className="size-4" aria-hidden="true" />
                  Receipt
                </RowButton>
                <RowButton label={`Photo of ${name}`} onClick={() => onPhoto(p)}>
                  <ImageIcon className="size-4" aria-hidden="true" />
                  Photo
                </RowButton>
                {canReset && (
                  <RowButton
                    label={`Reset password of ${name}`}
                    onClick={() => onReset(p)}
                    disabled={resettingId !== null}
                  >
                    <KeyRound className="size-4" aria-hidden="true" />
                    {resettingId === p.id ? '...' : 'Reset'}
                  </RowButton>
                )}
              </div>
            </td>
          </tr>
        );
      })}
    </ConsoleTable>
  );
}
