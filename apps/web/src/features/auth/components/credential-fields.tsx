import { PasswordField } from '../../../components/ui/password-field';
import { TextField } from '../../../components/ui/text-field';

/**
 * The email and password of a sign-in, as /login and the scanner's own sign-in ask them:
 * the autocomplete hints let a phone's password manager fill both.
 */
export function CredentialFields({
  email,
  password,
  onEmailChange,
  onPasswordChange,
}: {
  email: string;
  password: string;
  onEmailChange: (value: string) => void;
  onPasswordChange: (value: string) => void;
}) {
  return (
    <>
      <TextField
        label="Email"
        name="email"
        type="email"
        autoComplete="username"
        inputMode="email"
        required
        value={email}
        onChange={(e) => onEmailChange(e.target.value)}
      />
      <PasswordField
        label="Password"
        name="password"
        autoComplete="current-password"
        required
        value={password}
        onChange={(e) => onPasswordChange(e.target.value)}
      />
    </>
  );
}

/** A sign-in's refusal, read out by screen readers as it appears. */
export function SignInError({ message, className = '' }: { message: string | null; className?: string }) {
  if (!message) return null;
  return (
    <p
      role="alert"
      className={`rounded-md border-l-4 border-ember-500 bg-ember-700/20 px-4 py-3 text-bone ${className}`}
    >
      {message}
    </p>
  );
}
