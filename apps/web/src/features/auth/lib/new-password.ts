// A new password typed twice, as the reset and change-password forms take it: the checks
// run as toasts in this order, and a failed submit is told the same way on both.
import { passwordStrengthProblem } from '@rally/shared/contracts/auth';
import { isNetworkError } from '../../../lib/api-client';

/** The first problem of the form, or null. `otherFields` are the form's other required values. */
export function newPasswordProblem(password: string, confirm: string, otherFields: string[] = []): string | null {
  if (!password || !confirm || otherFields.some((value) => !value)) return 'Please fill in all fields';
  const weak = passwordStrengthProblem(password);
  if (weak) return weak;
  if (password !== confirm) return 'Passwords do not match';
  return null;
}

/** What a failed submit shows: the network notice, the server's message, else `fallback`. */
export function submitFailureMessage(error: unknown, fallback: string): string {
  if (isNetworkError(error)) return 'Network error. Please try again.';
  return error instanceof Error && error.message ? error.message : fallback;
}
