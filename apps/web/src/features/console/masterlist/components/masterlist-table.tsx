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
      className="inline-flex min-h-11 items-center justify-center gap-1 rounded-md border border-ink-600 px-2 text-sm font-bold sm:min-h-9 sm:justify-start sm:text-xs text-ash hover:border-fire-500 hover:text-fire-300 disabled:opacity-50"
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
      minWidth="sm:min-w-[1250px]"
      className="relative"
      stackOnPhone
    >
      {participants.map((p) => {
        const name = callNameOf(p);
        const category = staffCategory(p);
        return (
          <tr key={p.id} className="bg-ink-900 hover:bg-ink-850" data-user-id={p.id}>
            {/* The body's overflow-wrap: anywhere lets a table squeeze a column to one letter
                ("No Kit Nam e"): names here wrap between words, breaking a word only when it
                alone is wider than the column may grow (16rem). */}
            <td className={`${td} sm:min-w-52`}>
              <div className="flex min-w-0 items-center gap-3">
                <ProfileAvatar userId={p.id} name={name} hasImage={p.has_profile_image} className="size-10" />
                <div className="min-w-0 wrap-break-word sm:max-w-64">
                  <p className="font-bold text-bone" data-testid="masterlist-kit-name">
                    {p.kit_name || 'No Kit Name'}
                  </p>
                  <p className="text-ash" data-testid="masterlist-full-name">
                    {fullNameOf(p)}
                  </p>
                </div>
              </div>
            </td>
            <td data-label="Category" className={td}>
              <div>
                <span className={`font-bold ${p.category ? 'text-gold-300' : 'text-smoke'}`}>{category.name}</span>
                <span className="block text-xs text-smoke">{category.distance}</span>
              </div>
            </td>
            <td data-label="Rider #" className={`${td} font-display text-lg`}>
              #{p.rider_number}
            </td>
            <td data-label="Verification" className={td}>
              <VerificationBadge status={p.verification_status} />
            </td>
            <td data-label="Team" className={`${td} text-ash sm:max-w-[9rem]`}>
              <span className="min-w-0 wrap-anywhere">{p.club_name || 'No Team'}</span>
            </td>
            <td data-label="Payment" className={`${td} whitespace-nowrap`}>
              <span className={p.has_payment_receipt ? 'font-bold text-jade-400' : 'text-ember-400'}>
                {p.has_payment_receipt ? 'Receipt Uploaded' : 'No Receipt'}
              </span>
            </td>
            <td data-label="T-shirt" className={`${td} text-bone`}>
              <span className="min-w-0 wrap-anywhere">{sizeText(p.tshirt_size, p.custom_tshirt_size)}</span>
            </td>
            <td data-label="Bike Check" className={td}>
              <ProgressBadge value={p.bike_check_status} />
            </td>
            <td data-label="Rider Kit" className={td}>
              <ProgressBadge value={p.rider_kit_status} />
            </td>
            <td data-label="Contact" className={td}>
              <div className="min-w-0">
                <p className="whitespace-nowrap text-bone">{p.phone_number || '—'}</p>
                <p className="truncate text-xs text-smoke sm:max-w-[13rem]" title={p.email}>
                  {p.email}
                </p>
              </div>
            </td>
            <td className={td}>
              <div className="grid w-full grid-cols-2 gap-2 sm:w-max sm:gap-1">
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
