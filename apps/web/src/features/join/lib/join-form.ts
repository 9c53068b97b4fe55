// A returning rider's entry (DESIGN.md §9): the registration's rider part, kept in the
// registration form's own state shape so its sections, checks, payload and draft serve here
// unchanged. Only the fields below are shown, checked and sent; the account fields stay blank.
import {
  CATEGORIES,
  type Category,
  PAYMENT_METHODS,
  type PaymentMethod,
  SIZES,
  type Size,
} from '@rally/shared/catalog/registration';
import { entryProblem, REGISTRATION_SIZE_FIELDS } from '@rally/shared/contracts/auth';
import type { NextEntry } from '@rally/shared/contracts/editions';
import { draftFields, type RegistrationDraft } from '../../registration/lib/registration-draft';
import {
  ERROR_FIELDS,
  type FieldErrors,
  orderedProblems,
  registrationFieldErrors,
} from '../../registration/lib/registration-errors';
import { EMPTY_REGISTRATION, type RegistrationFields } from '../../registration/lib/registration-form';

/**
 * The problems an entry can have, in the order the form shows its fields: the registration
 * form's rider part, then the terms (each year's rally is agreed to again).
 */
export const JOIN_ERROR_FIELDS = [
  ...ERROR_FIELDS.slice(ERROR_FIELDS.indexOf('riderNumber'), ERROR_FIELDS.indexOf('agreedToTerms')),
  'agreedToTerms',
] as const;

/** What an entry holds of the registration form: the rest stays blank and is never sent. */
const JOIN_FIELDS = [
  'riderNumber',
  ...REGISTRATION_SIZE_FIELDS,
  'kitName',
  'motorcycleModel',
  'emergencyContactName',
  'emergencyContactNumber',
  'category',
  'paymentMethod',
] as const satisfies ReadonlyArray<keyof RegistrationFields>;

/** The entry's fields of `source`, every other field blank. */
export function entryFields(source: Partial<RegistrationFields>): RegistrationFields {
  const fields = { ...EMPTY_REGISTRATION };
  for (const key of JOIN_FIELDS) {
    if (source[key] !== undefined) Object.assign(fields, { [key]: source[key] });
  }
  return fields;
}

const oneOf = <T extends string>(values: readonly T[], value: string | null | undefined): T | '' =>
  (values as readonly string[]).includes(value ?? '') ? (value as T) : '';

/**
 * The trial as the form offers it: a man's lakambini entry is stored as magani, and the
 * form shows lakambini as MAGANI to him (the server stores it as magani again).
 */
export function trialOf(category: string | null | undefined): Category | '' {
  const known = oneOf(CATEGORIES, category);
  if (known === 'magani') return 'lakambini';
  if (known === 'magani-obr') return 'lakambini-obr';
  return known;
}

/** The form as it opens: the last entry's rider part, and the number held for the rider. */
export function fieldsFromNext(next: NextEntry): RegistrationFields {
  const p = next.prefill;
  return {
    ...EMPTY_REGISTRATION,
    riderNumber: next.heldNumber,
    kitName: p?.kitName ?? '',
    motorcycleModel: p?.motorcycleModel ?? '',
    emergencyContactName: p?.emergencyContactName ?? '',
    emergencyContactNumber: p?.emergencyContactNumber ?? '',
    category: trialOf(p?.category),
    paymentMethod: oneOf<PaymentMethod>(PAYMENT_METHODS, p?.paymentMethod),
    tshirtSize: oneOf<Size>(SIZES, p?.tshirtSize),
    customTshirtSize: p?.customTshirtSize ?? '',
    finisherSleeveSize: oneOf<Size>(SIZES, p?.finisherSleeveSize),
    customFinisherSleeveSize: p?.customFinisherSleeveSize ?? '',
    vestSize: oneOf<Size>(SIZES, p?.vestSize),
    customVestSize: p?.customVestSize ?? '',
  };
}

/** The registration form's per-field problems, those of an entry only. */
export function joinFieldErrors(fields: RegistrationFields, hasReceipt: boolean, agreed: boolean): FieldErrors {
  const all = registrationFieldErrors(fields, { hasReceipt, agreed });
  return Object.fromEntries(JOIN_ERROR_FIELDS.flatMap((f) => (all[f] ? [[f, all[f]]] : [])));
}

/**
 * The one toast a submit shows: the entry's checks first, in their order and words (the
 * server's 400 says the same), then the first of the form's own (emergency contact).
 */
export function joinToast(
  fields: RegistrationFields,
  hasReceipt: boolean,
  agreed: boolean,
  errors: FieldErrors,
): string | null {
  return entryProblem({ ...fields, hasReceipt, agreedToTerms: agreed }) ?? orderedProblems(errors)[0]?.message ?? null;
}

/**
 * The registration draft slot holds one form per phone; an entry's copy carries its
 * rider's email, so a signed-in rider never gets another person's copy back.
 */
export function joinDraft(fields: RegistrationFields | null, receipt: File | null, email: string): RegistrationDraft {
  const kept = draftFields(fields ?? EMPTY_REGISTRATION);
  // Untouched (null), the form is the server's prefill: nothing worth keeping on the phone.
  if (!fields && !receipt) return { fields: kept, agreed: false, profileImage: null, receipt: null };
  return { fields: { ...kept, email }, agreed: false, profileImage: null, receipt };
}

/** The rider's own kept entry, as form fields; null for anyone else's copy. */
export function ownDraftFields(kept: RegistrationDraft, email: string): RegistrationFields | null {
  if (kept.fields.email.trim().toLowerCase() !== email.trim().toLowerCase()) return null;
  return entryFields(kept.fields);
}
