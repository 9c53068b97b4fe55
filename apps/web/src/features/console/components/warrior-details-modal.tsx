// Warrior Details: everything staff know about a rider, with
// the activate/deactivate toggle.
import type { AdminUser } from '@rally/shared/contracts/users';
import { useQuery } from '@tanstack/react-query';
import {
  Bike,
  CalendarDays,
  CheckCircle2,
  Download,
  Flame,
  MapPin,
  Phone,
  ShieldAlert,
  Shirt,
  Users,
} from 'lucide-react';
import type { ReactNode } from 'react';
import { buttonStyles } from '../../../components/ui/button-styles';
import { Modal } from '../../../components/ui/modal';
import { toast } from '../../../lib/toast';
import { ProfileAvatar } from '../../public-profile/components/profile-avatar';
import { consoleKeys } from '../api/console-keys';
import { useUserActions } from '../api/use-user-actions';
import { fetchUser } from '../api/users-api';
import { callNameOf, formatDate, fullNameOf, hasAnySize, lastActive, riderNumberText, sizeText } from './display';
import { openProfilePicture } from './open-profile-picture';
import { RankBadge, StaffCategoryBadge, VerificationBadge } from './staff-badges';

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-xs font-bold uppercase tracking-wide text-smoke">{label}</dt>
      <dd className="wrap-anywhere text-bone">{children}</dd>
    </div>
  );
}

function Section({ title, icon: Icon, children }: { title: string; icon: typeof Phone; children: ReactNode }) {
  return (
    <section className="rounded-md border border-ink-700 bg-ink-850 p-3">
      <h3 className="mb-2 flex items-center gap-2 text-base text-fire-300">
        <Icon className="size-4" aria-hidden="true" />
        {title}
      </h3>
      <dl className="grid grid-cols-1 gap-3 sm:grid-cols-2">{children}</dl>
    </section>
  );
}

function emergencyContact(u: AdminUser): string {
  const name = u.emergency_contact_name?.trim();
  const number = u.emergency_contact_number?.trim();
  const shown = [name, number].filter((v) => v && v.toUpperCase() !== 'N/A');
  return shown.length > 0 ? shown.join(' · ') : 'Not Available';
}

export function WarriorDetailsModal({ user: initial, onClose }: { user: AdminUser | null; onClose: () => void }) {
  const actions = useUserActions();
  // The row opens the modal at once; a fresh read follows so a toggle shows its result.
  const query = useQuery({
    queryKey: consoleKeys.user(initial?.id ?? ''),
    queryFn: () => fetchUser(initial?.id ?? ''),
    enabled: !!initial,
    initialData: initial ?? undefined,
    staleTime: 0,
  });
  const u = query.data ?? initial;
  const name = u ? callNameOf(u) : '';
  const isSelf = u?.id === actions.viewerId;

  return (
    <Modal
      open={!!initial}
      onClose={onClose}
      title="Warrior Details"
      className="max-w-3xl"
      footer={
        u && (
          <div className="flex flex-wrap justify-end gap-2">
            {!isSelf && (
              <button
                type="button"
                disabled={actions.busy}
                aria-disabled={!actions.allowed.status}
                onClick={() => actions.toggleStatus(u)}
                className={buttonStyles(
                  u.status === 'active' ? 'danger' : 'primary',
                  'md',
                  actions.allowed.status ? '' : 'opacity-60',
                )}
              >
                {u.status === 'active' ? 'Deactivate' : 'Activate'}
              </button>
            )}
            <button type="button" onClick={onClose} className={buttonStyles('secondary')}>
              Close
            </button>
          </div>
        )
      }
    >
      {u && (
        <div className="flex flex-col gap-4">
          <div className="flex flex-col items-center gap-4 sm:flex-row sm:items-start">
            <div className="flex flex-col items-center gap-2">
              <ProfileAvatar
                userId={u.id}
                name={name}
                hasImage={u.has_profile_image}
                className="size-28"
                size="display"
              />
              {u.has_profile_image && (
                <button
                  type="button"
                  className={buttonStyles('ghost', 'md', 'min-h-9 px-2 text-xs')}
                  onClick={() =>
                    void openProfilePicture(u.id, name, { info: (m) => toast(m), error: (m) => toast.error(m) })
                  }
                >
                  <Download className="size-4" aria-hidden="true" />
                  View / Download
                </button>
              )}
            </div>
            <div className="min-w-0 text-center sm:text-left">
              <p className="font-display text-3xl text-bone">{u.kit_name || 'No Kit Name'}</p>
              <p className="text-ash">{fullNameOf(u)}</p>
              <div className="mt-2 flex flex-wrap justify-center gap-2 sm:justify-start">
                <RankBadge role={u.role_name} />
                <StaffCategoryBadge user={u} />
                <VerificationBadge status={u.verification_status} />
              </div>
            </div>
          </div>

          <Section title="Contact" icon={Phone}>
            <Field label="Email">
              <a href={`mailto:${u.email}`} className="text-fire-300 underline-offset-2 hover:underline">
                {u.email}
              </a>
            </Field>
            <Field label="Phone">
              {u.phone_number ? (
                <a href={`tel:${u.phone_number}`} className="text-fire-300 underline-offset-2 hover:underline">
                  {u.phone_number}
                </a>
              ) : (
                'Not Available'
              )}
            </Field>
            <Field label="Location">
              <span className="inline-flex items-center gap-1">
                <MapPin className="size-3.5 text-smoke" aria-hidden="true" />
                {u.address || 'Not Available'}
              </span>
            </Field>
            <Field label="Birthdate">{u.birthdate ? formatDate(`${u.birthdate}T00:00:00`) : 'Not Available'}</Field>
            <Field label="Rider Number">{riderNumberText(u.rider_number)}</Field>
            <Field label="Emergency Contact">{emergencyContact(u)}</Field>
          </Section>

          <Section title="Rally Statistics" icon={Flame}>
            <Field label="Total Fires">{u.fires}</Field>
            <Field label="Checkpoints">{u.checkpoints}</Field>
            <Field label="Join Date">{formatDate(u.created_at)}</Field>
            <Field label="Verification Code">{u.verification_code ?? '—'}</Field>
          </Section>

          <Section title="Motorcycle & Team" icon={Bike}>
            <Field label="Motorcycle">{u.motorcycle_model || 'Not specified'}</Field>
            <Field label="Team / Club">
              <span className="inline-flex items-center gap-1">
                <Users className="size-3.5 text-smoke" aria-hidden="true" />
                {u.club_name || 'No Team'}
              </span>
            </Field>
          </Section>

          <section className="rounded-md border border-ink-700 bg-ink-850 p-3">
            <div className="mb-2 flex flex-wrap items-center justify-between gap-2">
              <h3 className="flex items-center gap-2 text-base text-fire-300">
                <Shirt className="size-4" aria-hidden="true" />
                Clothing & Gear Sizes
              </h3>
              {hasAnySize(u) && (
                <span className="inline-flex items-center gap-1 rounded-full border border-jade-400 px-2 py-0.5 text-xs font-bold text-jade-400">
                  <CheckCircle2 className="size-3.5" aria-hidden="true" />
                  Sizes Submitted
                </span>
              )}
            </div>
            <dl className="grid grid-cols-1 gap-3 sm:grid-cols-3">
              <Field label="T-shirt">{sizeText(u.tshirt_size, u.custom_tshirt_size)}</Field>
              <Field label="Finisher Sleeve">{sizeText(u.finisher_sleeve_size, u.custom_finisher_sleeve_size)}</Field>
              <Field label="Rally Vest">{sizeText(u.vest_size, u.custom_vest_size)}</Field>
            </dl>
          </section>

          <Section title="Account" icon={u.status === 'active' ? CalendarDays : ShieldAlert}>
            <Field label="Current Status">
              <span className={u.status === 'active' ? 'font-bold text-jade-400' : 'font-bold text-ember-400'}>
                {u.status === 'active' ? 'Active' : 'Inactive'}
              </span>
            </Field>
            <Field label="Last Active">{lastActive(u.last_login)}</Field>
          </Section>
        </div>
      )}
    </Modal>
  );
}
