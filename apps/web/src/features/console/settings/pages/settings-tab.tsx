import { ChangePasswordForm } from '../../../auth/components/change-password-form';

/** Settings: for now the signed-in staff member's own password. */
export default function SettingsTab() {
  return (
    <div className="flex flex-col gap-4">
      <ChangePasswordForm />
    </div>
  );
}
