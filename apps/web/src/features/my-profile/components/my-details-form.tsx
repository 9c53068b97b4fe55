import type { UserRecord } from '@rally/shared/contracts/auth';
import { BLOOD_TYPES, MEDICAL_TEXT_MAX } from '@rally/shared/contracts/id-cards';
import { type MyDetailsBody, myDetailsBody } from '@rally/shared/contracts/rider-details';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { buttonStyles } from '../../../components/ui/button-styles';
import { inputStyles, labelStyles } from '../../../components/ui/field-styles';
import { RIDER_CONTACT_INPUTS } from '../../../components/ui/rider-contact-inputs';
import { TextField } from '../../../components/ui/text-field';
import { ApiError } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { updateMyDetails } from '../api/my-profile-api';

type Field = keyof MyDetailsBody;
type Values = Record<Field, string>;

/** The form's order, which is also the order the first invalid field is focused in. */
const FIELDS: readonly Field[] = [
  'phoneNumber',
  'address',
  'emergencyContactName',
  'emergencyContactNumber',
  'bloodType',
  'allergies',
  'medicalConditions',
];

const initialValues = (user: UserRecord): Values => ({
  phoneNumber: user.phoneNumber ?? '',
  address: user.address ?? '',
  emergencyContactName: user.emergencyContactName ?? '',
  emergencyContactNumber: user.emergencyContactNumber ?? '',
  // A user record kept on the phone from before these fields existed has none of them.
  bloodType: user.bloodType ?? '',
  allergies: user.allergies ?? '',
  medicalConditions: user.medicalConditions ?? '',
});

/** Only what the rider changed is sent, so an untouched empty field is never a "change". */
function changedFields(initial: Values, values: Values): Partial<Record<Field, string>> {
  const body: Partial<Record<Field, string>> = {};
  for (const field of FIELDS) {
    if (values[field].trim() !== initial[field].trim()) body[field] = values[field];
  }
  return body;
}

/** The rider's own phone, address, emergency contact and medical notes, edited in place. */
export function MyDetailsForm({
  user,
  onSaved,
  onCancel,
}: {
  user: UserRecord;
  onSaved: () => Promise<unknown>;
  onCancel: () => void;
}) {
  const [initial] = useState(() => initialValues(user));
  const [values, setValues] = useState<Values>(initial);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [problem, setProblem] = useState<string | null>(null);
  const formRef = useRef<HTMLFormElement>(null);
  // Bumped by a refused submit: once the messages are on screen, the first invalid field
  // (in form order) takes the focus.
  const [refusals, setRefusals] = useState(0);
  useEffect(() => {
    if (refusals > 0) formRef.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
  }, [refusals]);
  const id = useId();
  const fieldId = (field: Field) => `${id}-${field}`;
  const errorId = (field: Field) => `${id}-${field}-error`;

  const mutation = useMutation({
    mutationFn: updateMyDetails,
    onSuccess: async (result) => {
      await onSaved();
      toast.success(result.message ?? 'Your details have been updated');
    },
    onError: (error) => {
      const message = error instanceof ApiError && error.message ? error.message : 'Failed to save your details';
      setProblem(message);
      toast.error(message);
    },
  });

  const set = (field: Field, value: string) => {
    setValues((prev) => ({ ...prev, [field]: value }));
    if (errors[field]) setErrors((prev) => ({ ...prev, [field]: undefined }));
  };

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setProblem(null);
    const body = changedFields(initial, values);
    if (Object.keys(body).length === 0) {
      onCancel();
      return;
    }
    const parsed = myDetailsBody.safeParse(body);
    if (!parsed.success) {
      const found: Partial<Record<Field, string>> = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] as Field | undefined;
        if (field && FIELDS.includes(field) && !found[field]) found[field] = issue.message;
      }
      setErrors(found);
      if (Object.keys(found).length > 0) setRefusals((n) => n + 1);
      else setProblem(parsed.error.issues[0]?.message ?? 'Please check your details');
      return;
    }
    mutation.mutate(parsed.data);
  };

  // A text field shows its message as its hint, which TextField links to the input.
  const textControl = (field: Field) => ({
    value: values[field],
    'aria-invalid': errors[field] ? true : undefined,
    hint: errors[field] ? <span className="font-bold text-ember-400">{errors[field]}</span> : undefined,
  });
  // The select and text areas carry their own id and the link to their message.
  const control = (field: Field) => ({
    id: fieldId(field),
    value: values[field],
    'aria-invalid': errors[field] ? true : undefined,
    'aria-describedby': errors[field] ? errorId(field) : undefined,
  });
  const errorText = (field: Field) =>
    errors[field] ? (
      <p id={errorId(field)} className="mt-1.5 text-sm font-bold text-ember-400">
        {errors[field]}
      </p>
    ) : null;

  return (
    <form
      ref={formRef}
      onSubmit={onSubmit}
      noValidate
      aria-labelledby={`${id}-heading`}
      className="rounded-lg border-2 border-fire-500/60 bg-ink-850 p-4 sm:p-5"
      data-testid="my-details-form"
    >
      <h3 id={`${id}-heading`} className="text-2xl text-fire-300">
        Edit My Details
      </h3>
      <p className="mt-1 text-sm text-ash">
        Marshals call your emergency contact and read your medical notes if you are hurt on the course.
      </p>
      {problem && (
        <p role="alert" className="mt-3 rounded-md border border-ember-500 bg-ember-600/15 px-3 py-2 text-ember-400">
          {problem}
        </p>
      )}

      <fieldset className="mt-4 grid gap-4 sm:grid-cols-2">
        <legend className="mb-2 font-display text-lg text-bone">Contact</legend>
        <TextField
          {...RIDER_CONTACT_INPUTS.phoneNumber}
          autoComplete="tel"
          onChange={(e) => set('phoneNumber', e.target.value)}
          {...textControl('phoneNumber')}
        />
        <TextField
          {...RIDER_CONTACT_INPUTS.address}
          autoComplete="street-address"
          onChange={(e) => set('address', e.target.value)}
          {...textControl('address')}
        />
      </fieldset>

      <fieldset className="mt-5 grid gap-4 sm:grid-cols-2">
        <legend className="mb-2 font-display text-lg text-bone">Emergency Contact</legend>
        <TextField
          {...RIDER_CONTACT_INPUTS.emergencyContactName}
          onChange={(e) => set('emergencyContactName', e.target.value)}
          {...textControl('emergencyContactName')}
        />
        <TextField
          {...RIDER_CONTACT_INPUTS.emergencyContactNumber}
          onChange={(e) => set('emergencyContactNumber', e.target.value)}
          {...textControl('emergencyContactNumber')}
        />
      </fieldset>

      <fieldset className="mt-5 grid gap-4 sm:grid-cols-2">
        <legend className="mb-2 font-display text-lg text-bone">Medical Notes</legend>
        <div>
          <label htmlFor={fieldId('bloodType')} className={labelStyles}>
            Blood Type
          </label>
          <select {...control('bloodType')} onChange={(e) => set('bloodType', e.target.value)} className={inputStyles}>
            <option value="">Not known</option>
            {BLOOD_TYPES.map((type) => (
              <option key={type} value={type}>
                {type}
              </option>
            ))}
          </select>
          {errorText('bloodType')}
        </div>
        <div className="sm:col-span-2">
          <label htmlFor={fieldId('allergies')} className={labelStyles}>
            Allergies
          </label>
          <textarea
            {...control('allergies')}
            rows={2}
            maxLength={MEDICAL_TEXT_MAX}
            placeholder="Leave empty for no known allergies"
            onChange={(e) => set('allergies', e.target.value)}
            className={inputStyles}
          />
          {errorText('allergies')}
        </div>
        <div className="sm:col-span-2">
          <label htmlFor={fieldId('medicalConditions')} className={labelStyles}>
            Medical Conditions
          </label>
          <textarea
            {...control('medicalConditions')}
            rows={2}
            maxLength={MEDICAL_TEXT_MAX}
            onChange={(e) => set('medicalConditions', e.target.value)}
            className={inputStyles}
          />
          {errorText('medicalConditions')}
        </div>
      </fieldset>

      <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <button type="button" onClick={onCancel} disabled={mutation.isPending} className={buttonStyles('ghost')}>
          Cancel
        </button>
        <button type="submit" disabled={mutation.isPending} className={buttonStyles('primary')}>
          {mutation.isPending ? 'Saving...' : 'Save Details'}
        </button>
      </div>
    </form>
  );
}
