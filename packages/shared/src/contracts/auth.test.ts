// The registration contract: the registration checks in their fixed order, then the formats, as one schema the server runs once per request.
import { describe, expect, it } from 'vitest';
import { registrationPayload, registrationProblem } from './auth';
import { TEXT_LIMITS } from './common';

const valid = {
  riderNumber: '42',
  tshirtSize: 'M',
  finisherSleeveSize: 'L',
  vestSize: 'XL',
  firstName: 'Rajah',
  lastName: 'Sulayman',
  email: 'Rajah@Example.com',
  password: 'Warrior2025!',
  phoneNumber: '09171234567',
  category: 'lakan',
  paymentMethod: 'cash',
};

const firstMessage = (payload: Record<string, unknown>, hasReceipt?: boolean) => {
  const parsed = registrationPayload(hasReceipt).safeParse(payload);
  return parsed.success ? null : parsed.error.issues[0]?.message;
};

describe('registration checks', () => {
  it('answer the first failure in the fixed order of the checks', () => {
    expect(registrationProblem({})).toBe('Please select a rider number (1-1000).');
    expect(registrationProblem({ riderNumber: '1001' })).toBe('Please select a rider number (1-1000).');
    expect(registrationProblem({ riderNumber: '5' })).toBe('Please select a T-shirt size.');
    expect(registrationProblem({ riderNumber: '5', tshirtSize: 'CUSTOM' })).toBe(
      'Please enter your custom T-shirt size.',
    );
    expect(registrationProblem({ riderNumber: '5', tshirtSize: 'M' })).toBe('Please select a finisher sleeve size.');
    expect(registrationProblem({ riderNumber: '5', tshirtSize: 'M', finisherSleeveSize: 'M' })).toBe(
      'Please select a vest size.',
    );
    expect(registrationProblem({ ...valid, firstName: ' ', email: '' })).toBe(
      'Please fill in all required fields: firstName, email',
    );
    expect(registrationProblem({ ...valid, confirmPassword: 'other' })).toBe(
      'Passwords do not match. Please try again.',
    );
    expect(registrationProblem({ ...valid, password: 'short' })).toBe('Password must be at least 8 characters long.');
    expect(registrationProblem({ ...valid, paymentMethod: 'gcash', hasReceipt: false })).toBe(
      'Payment receipt is required for non-cash payments.',
    );
    expect(registrationProblem({ ...valid, agreedToTerms: false })).toBe(
      'Please agree to the terms and conditions before submitting.',
    );
    expect(registrationProblem(valid)).toBeNull();
  });
});

describe('registrationPayload', () => {
  it('gives typed input from the text parts of a valid payload', () => {
    const parsed = registrationPayload(false).parse(valid);
    expect(parsed.riderNumber).toBe(42);
    expect(parsed.email).toBe('rajah@example.com');
    expect(parsed.kitName).toBeUndefined();
  });

  it('runs the registration checks before the formats, and the formats after them', () => {
    expect(firstMessage({ ...valid, riderNumber: '', email: 'not-an-email' })).toBe(
      'Please select a rider number (1-1000).',
    );
    expect(firstMessage({ ...valid, email: 'not-an-email' })).toBe('email must be a valid email address');
    expect(firstMessage({ ...valid, category: 'downhill' })).toMatch(/^category must be one of/);
    expect(firstMessage({ ...valid, kitName: 'K'.repeat(TEXT_LIMITS.kitName + 1) })).toBe(
      `kitName must be at most ${TEXT_LIMITS.kitName} characters`,
    );
    expect(firstMessage({ ...valid, birthdate: '2001-02-30' })).toBe('birthdate must be a real date');
    expect(firstMessage({ ...valid, birthdate: '1899-12-31' })).toBe('birthdate must be in the past');
  });

  it('needs a receipt for non-cash payments only when it can tell (multipart)', () => {
    const gcash = { ...valid, paymentMethod: 'gcash' };
    expect(firstMessage(gcash, false)).toBe('Payment receipt is required for non-cash payments.');
    expect(firstMessage(gcash, true)).toBeNull();
    expect(firstMessage(gcash, undefined)).toBeNull();
  });
});
