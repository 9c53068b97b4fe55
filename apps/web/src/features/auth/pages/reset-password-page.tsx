import { REDIRECT_DELAY_MS } from '@rally/shared/catalog/web-client';
import { CircleCheck, KeyRound, LoaderCircle, TriangleAlert } from 'lucide-react';
import { type FormEvent, useEffect, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { AuthLayout } from '../../../components/layout/auth-layout';
import { buttonStyles } from '../../../components/ui/button-styles';
import { PageMeta } from '../../../components/ui/page-meta';
import { toast } from '../../../lib/toast';
import { type ResetTokenInfo, resetPassword, verifyResetToken } from '../api/reset-api';
import { NewPasswordFields } from '../components/new-password-fields';
import { newPasswordProblem, submitFailureMessage } from '../lib/new-password';

type Phase =
  | { kind: 'verifying' }
  | { kind: 'invalid' }
  | { kind: 'ready'; info: ResetTokenInfo }
  | { kind: 'done'; info: ResetTokenInfo };

export default function ResetPasswordPage() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const navigate = useNavigate();
  const [phase, setPhase] = useState<Phase>(token ? { kind: 'verifying' } : { kind: 'invalid' });
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!token) {
      toast.error('Invalid reset link', { id: 'reset-invalid' });
      const timer = setTimeout(() => navigate('/forgot-password', { replace: true }), REDIRECT_DELAY_MS);
      return () => clearTimeout(timer);
    }
    let cancelled = false;
    setPhase({ kind: 'verifying' });
    verifyResetToken(token)
      .then((info) => {
        if (cancelled) return;
        if (info) setPhase({ kind: 'ready', info });
        else {
          setPhase({ kind: 'invalid' });
          toast.error('Invalid or expired reset link', { id: 'reset-invalid' });
        }
      })
      .catch(() => {
        if (cancelled) return;
        setPhase({ kind: 'invalid' });
        toast.error('Invalid or expired reset link', { id: 'reset-invalid' });
      });
    return () => {
      cancelled = true;
    };
  }, [token, navigate]);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (phase.kind !== 'ready' || busy) return;
    const problem = newPasswordProblem(password, confirm);
    if (problem) {
      toast.error(problem);
      return;
    }
    setBusy(true);
    const toastId = toast.loading('Resetting...');
    try {
      const response = await resetPassword(token, password);
      if (!response?.success) throw new Error(response?.message || 'Failed to reset password');
      toast.success('Password reset successfully!', { id: toastId });
      setPhase({ kind: 'done', info: phase.info });
    } catch (error) {
      toast.error(submitFailureMessage(error, 'Failed to reset password'), { id: toastId });
    } finally {
      setBusy(false);
    }
  };

  return (
    <AuthLayout>
      <PageMeta
        title="Reset Password"
        path="/reset-password"
        description="Choose a new password for your Mindanao Warriors Endurance Rally account."
      />
      {/* The reset token is in this page's URL: never leak it to other sites through Referer. */}
      <meta name="referrer" content="no-referrer" />

      {phase.kind === 'verifying' && (
        <div role="status" className="flex flex-col items-center gap-3 py-10 text-center">
          <LoaderCircle className="size-12 animate-spin text-fire-500" aria-hidden="true" />
          <p className="font-display text-2xl">Verifying reset link...</p>
        </div>
      )}

      {phase.kind === 'invalid' && (
        <div className="py-4 text-center">
          <TriangleAlert className="mx-auto size-14 text-ember-400" aria-hidden="true" />
          <h1 className="mt-3 text-4xl text-ember-400">
            {token ? 'Invalid or expired reset link' : 'Invalid reset link'}
          </h1>
          <p className="mt-3 text-ash">
            Reset links work once and expire after an hour. Ask an administrator for a new one.
          </p>
          <Link to="/forgot-password" className={buttonStyles('primary', 'md', 'mt-6 w-full')}>
            Request New Reset Link
          </Link>
        </div>
      )}

      {phase.kind === 'ready' && (
        <>
          <div className="text-center">
            <KeyRound className="mx-auto size-14 text-fire-400" aria-hidden="true" />
            <h1 className="mt-3 text-4xl sm:text-5xl">Reset Password</h1>
            <p className="mt-2 text-ash">
              For{' '}
              <span className="font-bold break-all text-bone" data-testid="reset-email">
                {phase.info.email}
              </span>
            </p>
          </div>
          <form onSubmit={onSubmit} noValidate className="mt-8 space-y-5" aria-label="Reset password">
            <NewPasswordFields
              password={password}
              confirm={confirm}
              onPasswordChange={setPassword}
              onConfirmChange={setConfirm}
            />
            <button type="submit" disabled={busy} className={buttonStyles('primary', 'lg', 'w-full')}>
              {busy ? 'Resetting...' : 'Reset Password'}
            </button>
          </form>
        </>
      )}

      {phase.kind === 'done' && (
        <div className="py-4 text-center">
          <CircleCheck className="mx-auto size-14 text-jade-400" aria-hidden="true" />
          <h1 className="mt-3 text-4xl text-jade-400">Password Reset</h1>
          <p className="mt-3 text-lg text-bone">Well done, {phase.info.userName}!</p>
          <p className="mt-2 text-ash">
            Your password has been successfully reset. You can now login with your new password.
          </p>
          <Link to="/login" className={buttonStyles('primary', 'md', 'mt-6 w-full')}>
            Continue to Login
          </Link>
        </div>
      )}
    </AuthLayout>
  );
}
