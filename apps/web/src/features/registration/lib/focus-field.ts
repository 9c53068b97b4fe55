import type { ErrorField } from './registration-errors';

/** Where each field takes focus: its input, or for a choice, the checked or first option. */
const SELECTORS: Record<ErrorField, string[]> = {
  firstName: ['input[name="firstName"]'],
  lastName: ['input[name="lastName"]'],
  email: ['input[name="email"]'],
  password: ['input[name="password"]'],
  confirmPassword: ['input[name="confirmPassword"]'],
  phoneNumber: ['input[name="phoneNumber"]'],
  riderNumber: ['[data-rider-number]:not(:disabled)', 'input[type="search"]'],
  tshirtSize: ['input[name="tshirtSize"]'],
  customTshirtSize: ['input[name="custom-tshirtSize"]'],
  finisherSleeveSize: ['input[name="finisherSleeveSize"]'],
  customFinisherSleeveSize: ['input[name="custom-finisherSleeveSize"]'],
  vestSize: ['input[name="vestSize"]'],
  customVestSize: ['input[name="custom-vestSize"]'],
  emergencyContactName: ['input[name="emergencyContactName"]'],
  emergencyContactNumber: ['input[name="emergencyContactNumber"]'],
  category: ['input[name="category"]:checked', 'input[name="category"]'],
  paymentReceipt: ['[data-testid="receipt-input"]'],
  agreedToTerms: ['input[name="agreedToTerms"]'],
};

/**
 * Brings a field into view and focuses it. Visually hidden inputs (the size radios, the
 * receipt picker) scroll their visible label into view instead of a 1-pixel box.
 */
export function focusField(form: HTMLFormElement, field: ErrorField): void {
  const target = SELECTORS[field]
    .map((selector) => form.querySelector<HTMLElement>(selector))
    .find((el): el is HTMLElement => el !== null);
  if (!target) return;
  const visible = target.classList.contains('sr-only') ? (target.closest('label') ?? target) : target;
  const reduceMotion = window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;
  visible.scrollIntoView({ block: 'center', behavior: reduceMotion ? 'auto' : 'smooth' });
  target.focus({ preventScroll: true });
}
