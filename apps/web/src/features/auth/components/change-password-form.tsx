// Change Password, for riders (My Profile) and staff (console Settings): the current
// password, then the new one twice. The server checks the current password, the reset
// rules and the common-password list, and signs the user out everywhere else.
import { KeyRound } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { buttonStyles } from '../../../components/ui/button-styles';
import { PasswordField } from '../../../components/ui/password-field';
import { toast } from '../../../lib/toast';
import { changePassword } from '../api/change-password-api';
import { newPasswordProblem, submitFailureMessage } from '../lib/new-password';
import { NewPasswordFields } from './new-password-fields';

export function ChangePasswordForm() {
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [confirm, setConfirm] = useState('');
  const [busy, setBusy] = useState(false);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    const problem = newPasswordProblem(next, confirm, [current]);
    if (problem) {
      toast.error(problem);
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
      toast.error(submitFailureMessage(error, 'Failed to change password'), { id: toastId });
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
        <NewPasswordFields password={next} confirm={confirm} onPasswordChange={setNext} onConfirmChange={setConfirm} />
        <button type="submit" disabled={busy} className={buttonStyles('primary', 'lg', 'w-full')}>
          {busy ? 'Changing...' : 'Change Password'}
        </button>
      </form>
    </section>
  );
}
