import { PASSWORD_MIN_LENGTH } from '@rally/shared/catalog/accounts';
import { BIRTHDATE_MIN, TEXT_LIMITS } from '@rally/shared/contracts/common';
import { useId } from 'react';
import { inputStyles, labelStyles } from '../../../components/ui/field-styles';
import { PasswordField } from '../../../components/ui/password-field';
import { TextField } from '../../../components/ui/text-field';
import { errorId, type FieldErrors } from '../lib/registration-errors';
import type { FieldSetter, RegistrationFields } from '../lib/registration-form';
import { ProfilePictureField } from './profile-picture-field';

interface IdentitySectionProps {
  fields: RegistrationFields;
  set: FieldSetter;
  profileImage: File | null;
  onProfileImage: (file: File | null) => void;
  errors: FieldErrors;
}

export function IdentitySection({ fields, set, profileImage, onProfileImage, errors }: IdentitySectionProps) {
  const genderId = useId();
  const today = new Date().toISOString().slice(0, 10);
  return (
    <div className="space-y-5">
      <ProfilePictureField value={profileImage} onChange={onProfileImage} />
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField
          label="First name"
          name="firstName"
          error={errors.firstName}
          errorId={errorId('firstName')}
          autoComplete="given-name"
          required
          value={fields.firstName}
          onChange={(e) => set('firstName', e.target.value)}
        />
        <TextField
          label="Last name"
          name="lastName"
          error={errors.lastName}
          errorId={errorId('lastName')}
          autoComplete="family-name"
          required
          value={fields.lastName}
          onChange={(e) => set('lastName', e.target.value)}
        />
        <TextField
          label="Kit name"
          name="kitName"
          maxLength={TEXT_LIMITS.kitName}
          hint="The name printed on your rally kit."
          value={fields.kitName}
          onChange={(e) => set('kitName', e.target.value)}
        />
        <TextField
          label="Email"
          name="email"
          error={errors.email}
          errorId={errorId('email')}
          type="email"
          autoComplete="email"
          inputMode="email"
          required
          value={fields.email}
          onChange={(e) => set('email', e.target.value)}
        />
        <PasswordField
          label="Password"
          name="password"
          error={errors.password}
          errorId={errorId('password')}
          autoComplete="new-password"
          required
          hint={`At least ${PASSWORD_MIN_LENGTH} characters.`}
          value={fields.password}
          onChange={(e) => set('password', e.target.value)}
        />
        <PasswordField
          label="Confirm password"
          name="confirmPassword"
          error={errors.confirmPassword}
          errorId={errorId('confirmPassword')}
          autoComplete="new-password"
          required
          value={fields.confirmPassword}
          onChange={(e) => set('confirmPassword', e.target.value)}
        />
        <TextField
          label="Phone number"
          name="phoneNumber"
          error={errors.phoneNumber}
          errorId={errorId('phoneNumber')}
          type="tel"
          autoComplete="tel"
          inputMode="tel"
          required
          placeholder="09XX XXX XXXX"
          value={fields.phoneNumber}
          onChange={(e) => set('phoneNumber', e.target.value)}
        />
        <TextField
          label="Birthdate"
          name="birthdate"
          type="date"
          autoComplete="bday"
          min={BIRTHDATE_MIN}
          max={today}
          value={fields.birthdate}
          onChange={(e) => set('birthdate', e.target.value)}
        />
        <div>
          <label htmlFor={genderId} className={labelStyles}>
            Gender
          </label>
          <select
            id={genderId}
            name="gender"
            className={inputStyles}
            value={fields.gender}
            onChange={(e) => set('gender', e.target.value as RegistrationFields['gender'])}
          >
            <option value="">Select gender</option>
            <option value="male">Male</option>
            <option value="female">Female</option>
          </select>
        </div>
        <TextField
          label="Address"
          name="address"
          autoComplete="street-address"
          className="sm:col-span-2"
          value={fields.address}
          onChange={(e) => set('address', e.target.value)}
        />
      </div>
    </div>
  );
}
