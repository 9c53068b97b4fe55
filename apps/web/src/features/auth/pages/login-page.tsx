import { LogIn } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { Link, Navigate, useNavigate } from 'react-router';
import { AuthLayout } from '../../../components/layout/auth-layout';
import { buttonStyles } from '../../../components/ui/button-styles';
import { PageMeta } from '../../../components/ui/page-meta';
import { FullScreenSpinner } from '../../../components/ui/spinner';
import { useAuth } from '../../../lib/auth';
import { readStorage, removeStorage, writeStorage } from '../../../lib/storage';
import { toast } from '../../../lib/toast';
import { CredentialFields, SignInError } from '../components/credential-fields';
import { destinationFor } from '../lib/destination';

// "Remember me" keeps the email for the next visit; the session itself always lasts its 7 days.
const REMEMBERED_EMAIL_KEY = 'rememberedEmail';

export default function LoginPage() {
  const { user, isAuthenticated, isLoading, login } = useAuth();
  const navigate = useNavigate();
  const [email, setEmail] = useState(() => readStorage(REMEMBERED_EMAIL_KEY) ?? '');
  const [password, setPassword] = useState('');
  const [remember, setRemember] = useState(() => readStorage(REMEMBERED_EMAIL_KEY) !== null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  if (isLoading) return <FullScreenSpinner label="Authenticating warrior..." />;
  if (isAuthenticated && user && !busy) return <Navigate to={destinationFor(user)} replace />;

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    if (!email.trim() || !password) {
      toast.error('Please enter both email and password');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const signedIn = await login(email.trim(), password, remember);
      if (remember) writeStorage(REMEMBERED_EMAIL_KEY, email.trim());
      else removeStorage(REMEMBERED_EMAIL_KEY);
      toast.success(`Welcome back, ${signedIn.firstName || 'warrior'}!`);
      navigate(destinationFor(signedIn), { replace: true });
    } catch (err) {
      const message = err instanceof Error && err.message ? err.message : 'Login failed. Please try again.';
      setError(message);
      toast.error(message);
      setBusy(false);
    }
  };

  return (
    <AuthLayout>
      <PageMeta
        title="Log In"
        path="/login"
        description="Log in to your Mindanao Warriors Endurance Rally account to see your rider profile and verification status."
      />
      <div className="text-center">
        <p className="font-display text-lg tracking-[0.3em] text-fire-400">Warriors only</p>
        <h1 className="mt-1 text-5xl">Log In</h1>
        <p className="mt-2 text-ash">Welcome back. Your tribe is waiting.</p>
      </div>
      <form onSubmit={onSubmit} noValidate className="mt-8 space-y-5" aria-label="Log in">
        <CredentialFields email={email} password={password} onEmailChange={setEmail} onPasswordChange={setPassword} />
        <div className="flex flex-wrap items-center justify-between gap-3">
          <label className="flex min-h-11 cursor-pointer items-center gap-2 text-sm text-ash">
            <input
              type="checkbox"
              checked={remember}
              onChange={(e) => setRemember(e.target.checked)}
              className="size-5 accent-fire-500"
            />
            Remember me
          </label>
          <Link to="/forgot-password" className="text-sm font-bold text-fire-300 underline underline-offset-4">
            Forgot password?
          </Link>
        </div>
        <SignInError message={error} className="text-sm" />
        <button type="submit" disabled={busy} className={buttonStyles('primary', 'lg', 'w-full')}>
          <LogIn className="size-6" aria-hidden="true" />
          {busy ? 'ENTERING...' : 'ENTER THE REALM'}
        </button>
      </form>
      <div className="mt-8 border-t border-ink-700 pt-6 text-center">
        <p className="text-sm text-ash">New to the rally?</p>
        <Link to="/register" className={buttonStyles('secondary', 'md', 'mt-3 w-full')}>
          JOIN THE WARRIORS
        </Link>
      </div>
    </AuthLayout>
  );
}
