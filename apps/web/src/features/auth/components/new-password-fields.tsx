import type { ReactNode } from 'react';
import { PasswordField } from '../../../components/ui/password-field';

/** The New Password and Confirm New Password fields of the reset and change-password forms. */
export function NewPasswordFields({
  password,
  confirm,
  onPasswordChange,
  onConfirmChange,
  hint,
}: {
  password: string;
  confirm: string;
  onPasswordChange: (value: string) => void;
  onConfirmChange: (value: string) => void;
  hint: ReactNode;
}) {
  return (
    <>
      <PasswordField
        label="New Password"
        name="newPassword"
        autoComplete="new-password"
        required
        hint={hint}
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
