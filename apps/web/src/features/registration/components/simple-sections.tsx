import { TEXT_LIMITS } from '@rally/shared/contracts/common';
import { BLOOD_TYPES, MEDICAL_TEXT_MAX } from '@rally/shared/contracts/id-cards';
import { useId } from 'react';
import { inputStyles, labelStyles } from '../../../components/ui/field-styles';
import { TextField } from '../../../components/ui/text-field';
import { errorId, type FieldErrors } from '../lib/registration-errors';
import type { FieldSetter, RegistrationFields } from '../lib/registration-form';

interface SectionProps {
  fields: RegistrationFields;
  set: FieldSetter;
}

export function EmergencyContactSection({ fields, set, errors }: SectionProps & { errors: FieldErrors }) {
  const bloodTypeId = useId();
  const medicalHintId = useId();
  return (
    <div className="space-y-6">
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label="Contact name"
          name="emergencyContactName"
          autoComplete="off"
          required
          maxLength={TEXT_LIMITS.emergencyContactName}
          value={fields.emergencyContactName}
          onChange={(e) => set('emergencyContactName', e.target.value)}
          error={errors.emergencyContactName}
          errorId={errorId('emergencyContactName')}
        />
        <TextField
          label="Contact number"
          name="emergencyContactNumber"
          type="tel"
          inputMode="tel"
          autoComplete="off"
          required
          maxLength={TEXT_LIMITS.emergencyContactNumber}
          placeholder="09XX XXX XXXX"
          value={fields.emergencyContactNumber}
          onChange={(e) => set('emergencyContactNumber', e.target.value)}
          error={errors.emergencyContactNumber}
          errorId={errorId('emergencyContactNumber')}
        />
      </div>
      <fieldset className="min-w-0 rounded-lg border border-ink-700 bg-ink-950 p-4" aria-describedby={medicalHintId}>
        <legend className="px-1 font-display text-xl text-fire-300">Medical notes (optional)</legend>
        <p id={medicalHintId} className="mb-4 text-sm text-ash">
          Marshals and medics see these on your rider card if something happens. Leave blank if none; you can add them
          later.
        </p>
        <div className="grid gap-4 sm:grid-cols-[10rem_1fr]">
          <div>
            <label htmlFor={bloodTypeId} className={labelStyles}>
              Blood type
            </label>
            <select
              id={bloodTypeId}
              name="bloodType"
              className={inputStyles}
              value={fields.bloodType}
              onChange={(e) => set('bloodType', e.target.value as RegistrationFields['bloodType'])}
            >
              <option value="">Not sure</option>
              {BLOOD_TYPES.map((type) => (
                <option key={type} value={type}>
                  {type}
                </option>
              ))}
            </select>
          </div>
          <TextField
            label="Allergies"
            name="allergies"
            autoComplete="off"
            maxLength={MEDICAL_TEXT_MAX}
            placeholder="e.g. penicillin, bee stings"
            value={fields.allergies}
            onChange={(e) => set('allergies', e.target.value)}
          />
          <TextField
            label="Medical conditions"
            name="medicalConditions"
            autoComplete="off"
            className="sm:col-span-2"
            maxLength={MEDICAL_TEXT_MAX}
            placeholder="e.g. asthma, diabetes, medication you take"
            value={fields.medicalConditions}
            onChange={(e) => set('medicalConditions', e.target.value)}
          />
        </div>
      </fieldset>
    </div>
  );
}

export function MotorcycleSection({ fields, set }: SectionProps) {
  return (
    <div className="grid gap-4 sm:grid-cols-2">
      <TextField
        label="Motorcycle model"
        name="motorcycleModel"
        placeholder="e.g. Honda XR150L"
        value={fields.motorcycleModel}
        onChange={(e) => set('motorcycleModel', e.target.value)}
      />
      <TextField
        label="Club name"
        name="clubName"
        placeholder="Leave blank if riding solo"
        value={fields.clubName}
        onChange={(e) => set('clubName', e.target.value)}
      />
    </div>
  );
}
