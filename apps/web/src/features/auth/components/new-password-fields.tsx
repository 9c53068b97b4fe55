import { PASSWORD_MIN_LENGTH } from '@rally/shared/catalog/accounts';
import { PasswordField } from '../../../components/ui/password-field';

/**
 * The rules of a new password (passwordStrengthProblem), the same wherever one is set: the
 * server also refuses a common password on reset and on change.
 */
const NEW_PASSWORD_HINT = `At least ${PASSWORD_MIN_LENGTH} characters with uppercase, lowercase and a number. Common passwords are refused.`;

/** The New Password and Confirm New Password fields of the reset and change-password forms. */
export function NewPasswordFields({
  password,
  confirm,
  onPasswordChange,
  onConfirmChange,
}: {
  password: string;
  confirm: string;
  onPasswordChange: (value: string) => void;
  onConfirmChange: (value: string) => void;
}) {
  return (
    <>
      <PasswordField
        label="New Password"
        name="newPassword"
        autoComplete="new-password"
        required
        hint={NEW_PASSWORD_HINT}
        value={password}
        onChange={(e) => onPasswordChange(e.target.value)}
      />
      <PasswordField
        label="Confirm New Password"
        name="confirmNewPassword"
        autoComplete="new-password"
        required
        value={confirm}
        onChange={(e) => onConfirmChange(e.target.value)}
      />
    </>
  );
}
