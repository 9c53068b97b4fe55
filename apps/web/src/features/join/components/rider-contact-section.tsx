import { TEXT_LIMITS } from '@rally/shared/contracts/common';
import type { InputHTMLAttributes } from 'react';
import { TextField } from '../../../components/ui/text-field';
import type { SizesSection } from '../../registration/components/sizes-section';
import { errorId } from '../../registration/lib/registration-errors';

type TextKey = 'kitName' | 'motorcycleModel' | 'emergencyContactName' | 'emergencyContactNumber';

// The entry's text fields, labelled as on the registration form. Medical notes and club
// belong to the person, not the entry: they are changed on My Profile.
const TEXT_FIELDS: Array<{
  key: TextKey;
  label: string;
  hint?: string;
  input: InputHTMLAttributes<HTMLInputElement>;
}> = [
  { key: 'kitName', label: 'Kit name', hint: 'The name printed on your rally kit.', input: {} },
  { key: 'motorcycleModel', label: 'Motorcycle model', input: { placeholder: 'e.g. Honda XR150L' } },
  { key: 'emergencyContactName', label: 'Contact name', input: { required: true, autoComplete: 'off' } },
  {
    key: 'emergencyContactNumber',
    label: 'Contact number',
    input: { required: true, autoComplete: 'off', type: 'tel', inputMode: 'tel', placeholder: '09XX XXX XXXX' },
  },
];

/** The emergency contact is checked as on the registration form; kit name and motorcycle are optional. */
const isChecked = (key: TextKey): key is 'emergencyContactName' | 'emergencyContactNumber' =>
  key.startsWith('emergency');

/** Kit name and motorcycle as entered this year, and who we call if something happens. */
export function RiderContactSection({ fields, set, errors }: Parameters<typeof SizesSection>[0]) {
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      {TEXT_FIELDS.map(({ key, label, hint, input }) => (
        <TextField
          key={key}
          label={label}
          hint={hint}
          name={key}
          maxLength={TEXT_LIMITS[key]}
          {...input}
          value={fields[key]}
          onChange={(e) => set(key, e.target.value)}
          error={isChecked(key) ? errors[key] : undefined}
          errorId={isChecked(key) ? errorId(key) : undefined}
        />
      ))}
    </div>
  );
}
