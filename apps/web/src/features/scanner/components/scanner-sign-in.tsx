// Signing in on the scanner itself, through the same login as /login: a marshal stays on
// /scan, and after a session expires offline the queue waits here for the next sign-in.
import { LogIn } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { buttonStyles } from '../../../components/ui/button-styles';
import { type User, useAuth } from '../../../lib/auth';
import { CredentialFields, SignInError } from '../../auth/components/credential-fields';

export function ScannerSignIn({
  heading,
  note,
  onSignedIn,
}: {
  heading: string;
  note?: string;
  onSignedIn?: (user: User) => void;
}) {
  const { login } = useAuth();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (!email.trim() || !password) {
      setError('Please enter both email and password');
      return;
    }
    setBusy(true);
    setError(null);
    try {
      const user = await login(email.trim(), password);
      onSignedIn?.(user);
    } catch (err) {
      setError(err instanceof Error && err.message ? err.message : 'Login failed. Please try again.');
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={submit} noValidate aria-label="Sign in to the scanner" className="space-y-4">
      <h2 className="font-display text-3xl tracking-wider text-bone uppercase">{heading}</h2>
      {note && <p className="text-lg text-ash">{note}</p>}
      <CredentialFields email={email} password={password} onEmailChange={setEmail} onPasswordChange={setPassword} />
      <SignInError message={error} />
      <button type="submit" disabled={busy} className={buttonStyles('primary', 'lg', 'w-full')}>
        <LogIn className="size-6" aria-hidden="true" />
        {busy ? 'Signing in…' : 'Sign in'}
      </button>
    </form>
  );
}
