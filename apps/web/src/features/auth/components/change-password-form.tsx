// Change Password, for riders (My Profile) and staff (console Settings): the current
// password, then the new one twice. The server checks the current password, the reset
// rules and the common-password list, and signs the user out everywhere else.
import { passwordStrengthProblem } from '@rally/shared/contracts/auth';
import { KeyRound } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { buttonStyles } from '../../../components/ui/button-styles';
import { PasswordField } from '../../../components/ui/password-field';
import { isNetworkError } from '../../../lib/api-client';
import { toast } from '../../../lib/toast';
import { changePassword } from '../api/change-password-api';

export function ChangePasswordForm() {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [confirm, setConfirm] = useState('');
  const [busy, setBusy] = useState(false);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    if (!current || !next || !confirm) {
      toast.error('Please fill in all fields');
      return;
    }
    const weak = passwordStrengthProblem(next);
    if (weak) {
      toast.error(weak);
      return;
    }
    if (next !== confirm) {
      toast.error('Passwords do not match');
      return;
    }
    setBusy(true);
    const toastId = toast.loading('Changing password...');
    try {
      const response = await changePassword({ currentPassword: current, newPassword: next });
      if (!response?.success) throw new Error(response?.message || 'Failed to change password');
      toast.success(response.message || 'Password changed', { id: toastId });
      setCurrent('');
      setNext('');
      setConfirm('');
    } catch (error) {
      const message = isNetworkError(error)
        ? 'Network error. Please try again.'
        : error instanceof Error && error.message
          ? error.message
          : 'Failed to change password';
      toast.error(message, { id: toastId });
    } finally {
      setBusy(false);
    }
  };

  return (
    <section
      aria-labelledby="change-password-title"
      className="max-w-xl rounded-lg border-2 border-ink-700 bg-ink-900 p-5 sm:p-6"
    >
      <div className="flex items-center gap-3">
        <KeyRound className="size-8 shrink-0 text-fire-400" aria-hidden="true" />
        <h2 id="change-password-title" className="text-3xl">
          Change Password
        </h2>
      </div>
      <p className="mt-2 text-ash">Changing it signs you out on every other phone and computer.</p>
      <form onSubmit={onSubmit} noValidate className="mt-6 space-y-5" aria-label="Change password">
        <PasswordField
          label="Current Password"
          name="currentPassword"
          autoComplete="current-password"
          required
          value={current}
          onChange={(e) => setCurrent(e.target.value)}
        />
        <PasswordField
          label="New Password"
          name="newPassword"
          autoComplete="new-password"
          required
          hint="At least 8 characters with uppercase, lowercase and a number. Common passwords are refused."
          value={next}
          onChange={(e) => setNext(e.target.value)}
        />
        <PasswordField
          label="Confirm New Password"
          name="confirmNewPassword"
          autoComplete="new-password"
          required
          value={confirm}
          onChange={(e) => setConfirm(e.target.value)}
        />
        <button type="submit" disabled={busy} className={buttonStyles('primary', 'lg', 'w-full')}>
          {busy ? 'Changing...' : 'Change Password'}
        </button>
      </form>
    </section>
  );
}
