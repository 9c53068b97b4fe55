// Edit Warrior: details, kit sizes and (with
// edit_user_role) the role. Role and kit sizes are separate calls, made only when they
// changed; a failure of one of them after the details saved is reported as a partial update.
import type { Role } from '@rally/shared/catalog/accounts';
import { CATEGORIES, CUSTOM_SIZE_MAX, categoryDisplay, SIZES } from '@rally/shared/catalog/registration';
import { TEXT_LIMITS } from '@rally/shared/contracts/common';
import { type AdminUser, grantableRoles, type KitSizesBody, type UpdateUserBody } from '@rally/shared/contracts/users';
import { useQueryClient } from '@tanstack/react-query';
import { TriangleAlert } from 'lucide-react';
import { type FormEvent, useId, useState } from 'react';
import { buttonStyles } from '../../../components/ui/button-styles';
import { inputStyles, labelStyles } from '../../../components/ui/field-styles';
import { Modal } from '../../../components/ui/modal';
import { RIDER_CONTACT_INPUTS } from '../../../components/ui/rider-contact-inputs';
import { TextField } from '../../../components/ui/text-field';
import { useAuth } from '../../../lib/auth';
import { toast } from '../../../lib/toast';
import { consoleKeys } from '../api/console-keys';
import { useUserActions } from '../api/use-user-actions';
import { setKitSizes, setUserRole, updateUser } from '../api/users-api';
import { fullNameOf, staffRoleLabel } from './display';

export const PARTIAL_ROLE_FAILURE =
  'User information updated successfully, but role update failed. Please try updating the role separately.';
export const PARTIAL_SIZES_FAILURE =
  'User information updated successfully, but kit size update failed. Please try updating the kit size separately.';

interface FormState {
  kitName: string;
  fullName: string;
  phone: string;
  location: string;
  birthdate: string;
  motorcycle: string;
  club: string;
  category: string;
  emergencyName: string;
  emergencyNumber: string;
  role: Role;
  tshirtSize: string;
  customTshirtSize: string;
  finisherSleeveSize: string;
  customFinisherSleeveSize: string;
  vestSize: string;
  customVestSize: string;
}

function initialState(u: AdminUser): FormState {
  return {
    kitName: u.kit_name ?? '',
    fullName: fullNameOf(u),
    phone: u.phone_number ?? '',
    location: u.address ?? '',
    birthdate: u.birthdate ?? '',
    motorcycle: u.motorcycle_model ?? '',
    club: u.club_name ?? '',
    category: u.category ?? '',
    emergencyName: u.emergency_contact_name ?? '',
    emergencyNumber: u.emergency_contact_number ?? '',
    role: u.role_name,
    tshirtSize: u.tshirt_size ?? '',
    customTshirtSize: u.custom_tshirt_size ?? '',
    finisherSleeveSize: u.finisher_sleeve_size ?? '',
    customFinisherSleeveSize: u.custom_finisher_sleeve_size ?? '',
    vestSize: u.vest_size ?? '',
    customVestSize: u.custom_vest_size ?? '',
  };
}

/** The full name splits at its first space: "Juan Dela Cruz" is Juan / Dela Cruz. */
export function splitFullName(fullName: string): { first: string; last: string } {
  const trimmed = fullName.trim().replace(/\s+/g, ' ');
  const at = trimmed.indexOf(' ');
  return at === -1 ? { first: trimmed, last: '' } : { first: trimmed.slice(0, at), last: trimmed.slice(at + 1) };
}

const SIZE_FIELDS = [
  ['tshirtSize', 'customTshirtSize', 'T-shirt'],
  ['finisherSleeveSize', 'customFinisherSleeveSize', 'Finisher Sleeve'],
  ['vestSize', 'customVestSize', 'Rally Vest'],
] as const;

export function EditWarriorModal({ user, onClose }: { user: AdminUser | null; onClose: () => void }) {
  return (
    <Modal open={!!user} onClose={onClose} title="Edit Warrior" className="max-w-3xl">
      {user && <EditWarriorForm key={user.id} user={user} onClose={onClose} />}
    </Modal>
  );
}

function EditWarriorForm({ user, onClose }: { user: AdminUser; onClose: () => void }) {
  const queryClient = useQueryClient();
  const { allowed } = useUserActions();
  const [initial] = useState(() => initialState(user));
  const [form, setForm] = useState<FormState>(initial);
  const [saving, setSaving] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [touched, setTouched] = useState(false);
  const ids = { category: useId(), role: useId(), error: useId() };
  const { user: viewer } = useAuth();
  // The current role stays selectable even when the viewer could not grant it.
  const roleOptions = Array.from(new Set<Role>([user.role_name, ...grantableRoles(viewer?.role)]));

  const set = <K extends keyof FormState>(key: K, value: FormState[K]) => setForm((f) => ({ ...f, [key]: value }));
  const kitMissing = form.kitName.trim() === '';
  const nameMissing = form.fullName.trim() === '';
  const customMissing = (size: (typeof SIZE_FIELDS)[number]) =>
    form[size[0]] === 'CUSTOM' && form[size[1]].trim() === '';

  async function onSubmit(event: FormEvent) {
    event.preventDefault();
    setTouched(true);
    setProblem(null);
    if (!allowed.edit) {
      toast.error('You do not have permission to edit user information.');
      return;
    }
    if (kitMissing || nameMissing || SIZE_FIELDS.some(customMissing)) return;
    const { first, last } = splitFullName(form.fullName);
    const body: UpdateUserBody = {
      kit_name: form.kitName.trim(),
      first_name: first,
      last_name: last,
      phone_number: form.phone,
      address: form.location,
      birthdate: form.birthdate,
      motorcycle_model: form.motorcycle,
      club_name: form.club,
      // 'Not Set' is stored as null.
      category: (form.category || null) as UpdateUserBody['category'],
      emergency_contact_name: form.emergencyName,
      emergency_contact_number: form.emergencyNumber,
    };
    setSaving(true);
    try {
      try {
        await updateUser(user.id, body);
      } catch (error) {
        setProblem(error instanceof Error ? error.message : 'Failed to update user');
        toast.error('Failed to update user');
        return;
      }
      const failures: string[] = [];
      if (allowed.editRole && form.role !== initial.role) {
        try {
          await setUserRole(user.id, form.role);
        } catch {
          failures.push(PARTIAL_ROLE_FAILURE);
        }
      }
      const sizesChanged = SIZE_FIELDS.some(
        ([size, custom]) => form[size] !== initial[size] || form[custom] !== initial[custom],
      );
      if (sizesChanged) {
        const sizes: KitSizesBody = {};
        for (const [size, custom] of SIZE_FIELDS) {
          sizes[size] = (form[size] || null) as KitSizesBody[typeof size];
          sizes[custom] = form[size] === 'CUSTOM' ? form[custom].trim() || null : null;
        }
        try {
          await setKitSizes(user.id, sizes);
        } catch {
          failures.push(PARTIAL_SIZES_FAILURE);
        }
      }
      void queryClient.invalidateQueries({ queryKey: consoleKeys.users });
      void queryClient.invalidateQueries({ queryKey: consoleKeys.masterlist });
      if (failures.length > 0) {
        for (const message of failures) toast.error(message);
      } else {
        toast.success('User updated successfully');
      }
      onClose();
    } finally {
      setSaving(false);
    }
  }

  return (
    <form
      onSubmit={onSubmit}
      noValidate
      className="flex flex-col gap-4"
      aria-describedby={problem ? ids.error : undefined}
    >
      {problem && (
        <p
          id={ids.error}
          role="alert"
          className="rounded-md border border-ember-600 bg-ember-700/15 px-3 py-2 text-sm text-ember-400"
        >
          {problem}
        </p>
      )}
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
        <TextField
          label="Kit Name"
          required
          value={form.kitName}
          maxLength={TEXT_LIMITS.kitName}
          onChange={(e) => set('kitName', e.target.value)}
          aria-invalid={touched && kitMissing}
          hint={touched && kitMissing ? 'Kit Name is required' : undefined}
        />
        <TextField
          label="Full Name"
          required
          value={form.fullName}
          maxLength={TEXT_LIMITS.firstName + 1 + TEXT_LIMITS.lastName}
          onChange={(e) => set('fullName', e.target.value)}
          aria-invalid={touched && nameMissing}
          hint={touched && nameMissing ? 'Full Name is required' : 'First name, a space, then last name'}
        />
        <TextField
          {...RIDER_CONTACT_INPUTS.phoneNumber}
          value={form.phone}
          onChange={(e) => set('phone', e.target.value)}
        />
        <TextField
          {...RIDER_CONTACT_INPUTS.address}
          label="Location"
          value={form.location}
          onChange={(e) => set('location', e.target.value)}
        />
        <TextField
          label="Birthdate"
          type="date"
          value={form.birthdate}
          onChange={(e) => set('birthdate', e.target.value)}
        />
        <TextField
          label="Motorcycle"
          value={form.motorcycle}
          maxLength={TEXT_LIMITS.motorcycleModel}
          onChange={(e) => set('motorcycle', e.target.value)}
        />
        <TextField
          label="Team/Club Name"
          value={form.club}
          maxLength={TEXT_LIMITS.clubName}
          onChange={(e) => set('club', e.target.value)}
        />
        <div>
          <label htmlFor={ids.category} className={labelStyles}>
            Category
          </label>
          <select
            id={ids.category}
            className={inputStyles}
            value={form.category}
            onChange={(e) => set('category', e.target.value)}
          >
            <option value="">Not Set</option>
            {CATEGORIES.map((c) => (
              <option key={c} value={c}>
                {categoryDisplay(c).name} ({categoryDisplay(c).distance})
              </option>
            ))}
          </select>
        </div>
        <TextField
          {...RIDER_CONTACT_INPUTS.emergencyContactName}
          value={form.emergencyName}
          onChange={(e) => set('emergencyName', e.target.value)}
        />
        <TextField
          {...RIDER_CONTACT_INPUTS.emergencyContactNumber}
          value={form.emergencyNumber}
          onChange={(e) => set('emergencyNumber', e.target.value)}
        />
      </div>

      <fieldset className="rounded-md border border-ink-700 p-3">
        <legend className="px-1 font-display text-lg text-fire-300">Kit Sizes</legend>
        <p className="mb-3 flex items-start gap-2 text-sm text-gold-300">
          <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          Changes to kit sizes will affect inventory and should be made carefully.
        </p>
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-3">
          {SIZE_FIELDS.map((field) => {
            const [size, custom, label] = field;
            return (
              <SizeSelect
                key={size}
                label={label}
                value={form[size]}
                custom={form[custom]}
                customError={touched && customMissing(field) ? `Please enter the custom ${label} size` : undefined}
                onValue={(v) => set(size, v)}
                onCustom={(v) => set(custom, v)}
              />
            );
          })}
        </div>
      </fieldset>

      {allowed.editRole && (
        <div className="rounded-md border border-ink-700 p-3">
          <label htmlFor={ids.role} className={labelStyles}>
            Role
          </label>
          <select
            id={ids.role}
            className={inputStyles}
            value={form.role}
            onChange={(e) => set('role', e.target.value as Role)}
          >
            {roleOptions.map((r) => (
              <option key={r} value={r}>
                {staffRoleLabel(r)}
              </option>
            ))}
          </select>
          <p className="mt-2 flex items-start gap-2 text-sm text-gold-300">
            <TriangleAlert className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
            Changing roles affects user permissions and access levels
          </p>
        </div>
      )}

      <div className="flex flex-wrap justify-end gap-2 border-t border-ink-700 pt-4">
        <button type="button" onClick={onClose} className={buttonStyles('secondary')} disabled={saving}>
          Cancel
        </button>
        <button type="submit" className={buttonStyles('primary')} disabled={saving}>
          {saving ? 'Saving...' : 'Save Changes'}
        </button>
      </div>
    </form>
  );
}

function SizeSelect({
  label,
  value,
  custom,
  onValue,
  onCustom,
  customError,
}: {
  label: string;
  value: string;
  custom: string;
  customError?: string;
  onValue: (v: string) => void;
  onCustom: (v: string) => void;
}) {
  const id = useId();
  return (
    <div>
      <label htmlFor={id} className={labelStyles}>
        {label}
      </label>
      <select id={id} className={inputStyles} value={value} onChange={(e) => onValue(e.target.value)}>
        <option value="">Not set</option>
        {SIZES.map((s) => (
          <option key={s} value={s}>
            {s}
          </option>
        ))}
      </select>
      {value === 'CUSTOM' && (
        <TextField
          className="mt-2"
          label={`Custom ${label} size`}
          value={custom}
          maxLength={CUSTOM_SIZE_MAX}
          onChange={(e) => onCustom(e.target.value)}
          aria-invalid={!!customError}
          hint={customError}
        />
      )}
    </div>
  );
}
