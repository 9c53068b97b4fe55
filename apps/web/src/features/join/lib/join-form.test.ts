import { REGISTRATION_SIZE_FIELDS } from '@rally/shared/contracts/auth';
import type { NextEntry } from '@rally/shared/contracts/editions';
import { PH_MOBILE_MESSAGE } from '@rally/shared/contracts/rider-details';
import { describe, expect, it } from 'vitest';
import { EMPTY_REGISTRATION } from '../../registration/lib/registration-form';
import {
  entryFields,
  fieldsFromNext,
  JOIN_ERROR_FIELDS,
  joinDraft,
  joinFieldErrors,
  joinToast,
  ownDraftFields,
  trialOf,
} from './join-form';

const next = (over: Partial<NextEntry> = {}): NextEntry => ({
  edition: {
    id: 'e-2027',
    name: 'Mindanao Warriors Endurance Rally 2027',
    year: 2027,
    registrationOpensAt: null,
    registrationClosesAt: null,
    registration: 'open',
  },
  entered: false,
  prefill: {
    fromEdition: 'Mindanao Warriors Endurance Rally 2026',
    category: 'magani-obr',
    kitName: 'DATU',
    motorcycleModel: 'Honda XR150L',
    emergencyContactName: 'Maria',
    emergencyContactNumber: '09179876543',
    paymentMethod: 'gcash',
    tshirtSize: 'L',
    customTshirtSize: null,
    finisherSleeveSize: 'CUSTOM',
    customFinisherSleeveSize: 'Arm 26 in',
    vestSize: 'XL',
    customVestSize: null,
  },
  heldNumber: 42,
  heldUntil: '2027-03-01T00:00:00.000Z',
  ...over,
});

const receipt = new File(['x'], 'receipt.png', { type: 'image/png' });

describe('the returning rider form', () => {
  it('opens on the last entry and the held number', () => {
    const fields = fieldsFromNext(next());
    expect(fields).toMatchObject({
      riderNumber: 42,
      kitName: 'DATU',
      category: 'lakambini-obr',
      paymentMethod: 'gcash',
      tshirtSize: 'L',
      finisherSleeveSize: 'CUSTOM',
      customFinisherSleeveSize: 'Arm 26 in',
      vestSize: 'XL',
      customVestSize: '',
      emergencyContactNumber: '09179876543',
      firstName: '',
      email: '',
    });
    // Nothing held, nothing entered before: a blank entry.
    expect(fieldsFromNext(next({ prefill: null, heldNumber: null, heldUntil: null }))).toEqual(EMPTY_REGISTRATION);
  });

  it('offers a stored trial as the form shows it, and drops values it does not know', () => {
    expect(trialOf('magani')).toBe('lakambini');
    expect(trialOf('bagani')).toBe('bagani');
    expect(trialOf('gravel')).toBe('');
    const base = next().prefill;
    if (!base) throw new Error('no prefill');
    expect(fieldsFromNext(next({ prefill: { ...base, tshirtSize: 'HUGE', paymentMethod: 'crypto' } }))).toMatchObject({
      tshirtSize: '',
      paymentMethod: '',
    });
  });

  it('checks only the rider part of the registration form, and the terms again', () => {
    expect(JOIN_ERROR_FIELDS.at(0)).toBe('riderNumber');
    expect(JOIN_ERROR_FIELDS.at(-2)).toBe('paymentReceipt');
    expect(JOIN_ERROR_FIELDS.at(-1)).toBe('agreedToTerms');
    expect(JOIN_ERROR_FIELDS).toEqual(expect.arrayContaining([...REGISTRATION_SIZE_FIELDS, 'category']));
    for (const account of ['firstName', 'email', 'password', 'phoneNumber'] as const) {
      expect(JOIN_ERROR_FIELDS).not.toContain(account);
    }
  });

  it("checks in the entry's order, with the entry's words, and only the entry's fields", () => {
    const fields = { ...fieldsFromNext(next()), riderNumber: null, vestSize: '' as const };
    const errors = joinFieldErrors(fields, false, false);
    expect(Object.keys(errors)).toEqual(['riderNumber', 'vestSize', 'paymentReceipt', 'agreedToTerms']);
    expect(joinToast(fields, false, false, errors)).toBe('Please select a rider number (1-1000).');
    const ready = fieldsFromNext(next());
    expect(joinToast(ready, false, true, joinFieldErrors(ready, false, true))).toBe(
      'Payment receipt is required for non-cash payments.',
    );
    expect(joinToast({ ...ready, paymentMethod: 'cash' }, false, false, {})).toBe(
      'Please agree to the terms and conditions before submitting.',
    );
    expect(joinToast({ ...ready, paymentMethod: 'cash' }, false, true, {})).toBeNull();
    // The form's own check after the entry's: a number nobody can dial.
    const badPhone = { ...ready, emergencyContactNumber: '123' };
    expect(joinToast(badPhone, true, true, joinFieldErrors(badPhone, true, true))).toBe(PH_MOBILE_MESSAGE);
  });

  it('keeps an entry on the phone under its rider, and gives it back to that rider only', () => {
    expect(joinDraft(null, null, 'rider@example.com').fields).toEqual(joinDraft(null, null, '').fields);
    expect(joinDraft(null, null, 'rider@example.com').fields.email).toBe('');
    const kept = joinDraft({ ...fieldsFromNext(next()), vestSize: 'M' }, receipt, 'Rider@Example.com');
    expect(kept.fields.email).toBe('Rider@Example.com');
    expect(kept.receipt).toBe(receipt);
    expect(ownDraftFields(kept, 'rider@example.com')).toMatchObject({ vestSize: 'M', riderNumber: 42, email: '' });
    expect(ownDraftFields(kept, 'someone@example.com')).toBeNull();
    // A registration draft of the same person brings only the entry's fields.
    const registration = { ...kept, fields: { ...kept.fields, firstName: 'Lapu', phoneNumber: '0917' } };
    expect(ownDraftFields(registration, 'rider@example.com')).toMatchObject({ firstName: '', phoneNumber: '' });
  });

  it('sends only the entry fields', () => {
    const fields = entryFields({ ...EMPTY_REGISTRATION, firstName: 'Lapu', riderNumber: 9, vestSize: 'S' });
    expect(fields.firstName).toBe('');
    expect(fields.riderNumber).toBe(9);
    expect(fields.vestSize).toBe('S');
  });
});
