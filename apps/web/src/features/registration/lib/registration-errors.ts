// Every problem of the registration form at once, field by field, in the order the fields
// appear. The spec's checks still decide the one toast (their first failure, in their own
// order); the per-field list is what the inline messages and the error summary show.

import { PASSWORD_MIN_LENGTH } from '@rally/shared/catalog/accounts';
import { isRiderNumber, RIDER_NUMBER_MESSAGE } from '@rally/shared/catalog/rider-number';
import { emailSchema, REGISTRATION_SIZE_FIELDS, registrationProblem } from '@rally/shared/contracts/auth';
import { philippineMobile } from '@rally/shared/contracts/rider-details';
import type { RegistrationFields } from './registration-form';

/** The fields a check can fail on, in form order. */
export const ERROR_FIELDS = [
  'firstName',
  'lastName',
  'email',
  'password',
  'confirmPassword',
  'phoneNumber',
  'riderNumber',
  ...REGISTRATION_SIZE_FIELDS,
  'emergencyContactName',
  'emergencyContactNumber',
  'category',
  'paymentReceipt',
  'agreedToTerms',
] as const;
export type ErrorField = (typeof ERROR_FIELDS)[number];
export type FieldErrors = Partial<Record<ErrorField, string>>;

export interface FormExtras {
  hasReceipt: boolean;
  agreed: boolean;
}

/** The id of a field's inline message: the summary's links point at it. */
export const errorId = (field: ErrorField) => `registration-error-${field}`;

/** Shorthand for the components: the message and its id, or nothing. */
export function fieldError(errors: FieldErrors, field: ErrorField) {
  const message = errors[field];
  return message ? { message, id: errorId(field) } : undefined;
}

const blank = (v: string) => v.trim() === '';
const emergencyNumber = philippineMobile('emergencyContactNumber');

export function registrationFieldErrors(fields: RegistrationFields, extras: FormExtras): FieldErrors {
  const errors: FieldErrors = {};
  if (blank(fields.firstName)) errors.firstName = 'Please enter your first name.';
  if (blank(fields.lastName)) errors.lastName = 'Please enter your last name.';
  if (blank(fields.email)) errors.email = 'Please enter your email address.';
  else if (!emailSchema.safeParse(fields.email).success) errors.email = 'Please enter a valid email address.';
  if (blank(fields.password)) errors.password = 'Please enter a password.';
  else if (fields.password.length < PASSWORD_MIN_LENGTH) {
    errors.password = 'Password must be at least 8 characters long.';
  }
  if (fields.password !== fields.confirmPassword && (fields.password || fields.confirmPassword)) {
    errors.confirmPassword = 'Passwords do not match. Please try again.';
  }
  if (blank(fields.phoneNumber)) errors.phoneNumber = 'Please enter your phone number.';

  if (!isRiderNumber(fields.riderNumber)) errors.riderNumber = RIDER_NUMBER_MESSAGE;
  if (!fields.tshirtSize) errors.tshirtSize = 'Please select a T-shirt size.';
  if (fields.tshirtSize === 'CUSTOM' && blank(fields.customTshirtSize)) {
    errors.customTshirtSize = 'Please enter your custom T-shirt size.';
  }
  if (!fields.finisherSleeveSize) errors.finisherSleeveSize = 'Please select a finisher sleeve size.';
  if (fields.finisherSleeveSize === 'CUSTOM' && blank(fields.customFinisherSleeveSize)) {
    errors.customFinisherSleeveSize = 'Please enter your custom finisher sleeve size.';
  }
  if (!fields.vestSize) errors.vestSize = 'Please select a vest size.';
  if (fields.vestSize === 'CUSTOM' && blank(fields.customVestSize)) {
    errors.customVestSize = 'Please enter your custom vest size.';
  }

  if (blank(fields.emergencyContactName)) errors.emergencyContactName = 'Please enter an emergency contact name.';
  if (blank(fields.emergencyContactNumber)) {
    errors.emergencyContactNumber = 'Please enter an emergency contact number.';
  } else {
    const number = emergencyNumber.safeParse(fields.emergencyContactNumber);
    if (!number.success) errors.emergencyContactNumber = number.error.issues[0]?.message;
  }

  if (!fields.category) errors.category = 'Please choose your trial.';
  if (fields.paymentMethod && fields.paymentMethod !== 'cash' && !extras.hasReceipt) {
    errors.paymentReceipt = 'Payment receipt is required for non-cash payments.';
  }
  if (!extras.agreed) errors.agreedToTerms = 'Please agree to the terms and conditions before submitting.';
  return errors;
}

/** The problems in form order, for the summary and for finding the first one. */
export function orderedProblems(errors: FieldErrors): Array<{ field: ErrorField; message: string }> {
  return ERROR_FIELDS.flatMap((field) => {
    const message = errors[field];
    return message ? [{ field, message }] : [];
  });
}

/**
 * The one toast a submit shows: the spec's checks first, in their fixed order and words;
 * only when all of them pass, the first of the form's own further checks (email format,
 * emergency contact).
 */
export function registrationToast(fields: RegistrationFields, extras: FormExtras, errors: FieldErrors) {
  const problem = registrationProblem({
    ...fields,
    hasReceipt: extras.hasReceipt,
    agreedToTerms: extras.agreed,
  });
  return problem ?? orderedProblems(errors)[0]?.message ?? null;
}
