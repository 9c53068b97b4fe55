import { KeyRound, ShieldCheck } from 'lucide-react';
import { Link } from 'react-router';
import { AuthLayout } from '../../../components/layout/auth-layout';
import { buttonStyles } from '../../../components/ui/button-styles';
import { PageMeta } from '../../../components/ui/page-meta';

export default function ForgotPasswordPage() {
  return (
    <AuthLayout>
      <PageMeta
        title="Forgot Password"
        path="/forgot-password"
        description="How to reset your Mindanao Warriors Endurance Rally password."
      />
      <div className="text-center">
        <KeyRound className="mx-auto size-14 text-fire-400" aria-hidden="true" />
        <h1 className="mt-3 text-4xl sm:text-5xl">Forgot Password?</h1>
      </div>
      <div className="mt-6 space-y-4 text-ash">
        <p>
          Password resets are handled by the rally <strong className="text-bone">administrators</strong>. For your
          security there is no automatic reset email.
        </p>
        <ol className="list-decimal space-y-2 pl-5">
          <li>
            Contact an administrator or rally organizer (through your club, the rally page or at the registration desk).
          </li>
          <li>Tell them the email you registered with. They confirm it is really you.</li>
          <li>
            They generate a <strong className="text-bone">secure reset link</strong> for you. It works once and expires
            after one hour.
          </li>
          <li>Open the link and choose a new password.</li>
        </ol>
        <p className="flex items-start gap-2 rounded-md bg-ink-950 px-4 py-3 text-sm">
          <ShieldCheck className="mt-0.5 size-5 shrink-0 text-jade-400" aria-hidden="true" />
          Staff will never ask for your current password.
        </p>
      </div>
      <Link to="/login" className={buttonStyles('primary', 'md', 'mt-8 w-full')}>
        Back to Login
      </Link>
    </AuthLayout>
  );
}
