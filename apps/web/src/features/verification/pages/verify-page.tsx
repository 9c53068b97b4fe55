import { ADMIN_LANDING_ROLES, type Role } from '@rally/shared/catalog/accounts';
import { REDIRECT_DELAY_MS, STORAGE_KEYS, VERIFY_POLL_INTERVAL_MS } from '@rally/shared/catalog/web-client';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { BadgeCheck, Check, Copy, Hourglass, LifeBuoy, LogOut, RefreshCw, ShieldX, Swords } from 'lucide-react';
import { useCallback, useEffect, useState } from 'react';
import { Link, Navigate, useLocation, useNavigate } from 'react-router';
import { AuthLayout } from '../../../components/layout/auth-layout';
import { buttonStyles } from '../../../components/ui/button-styles';
import { PageMeta } from '../../../components/ui/page-meta';
import { useAuth } from '../../../lib/auth';
import { formatTime } from '../../../lib/format';
import { readStorage } from '../../../lib/storage';
import { toast } from '../../../lib/toast';
import { fetchMyVerification } from '../api/my-verification-api';
import { copyText } from '../components/copy-text';
import { RejectionReason, ResubmitReceipt } from '../components/rejection-panel';

const MY_VERIFICATION_KEY = ['my-verification'] as const;

const SUPPORT_EMAIL = 'support@mindanaowarriors.ph';

function landingFor(role: Role | undefined): string {
  return role && (ADMIN_LANDING_ROLES as readonly string[]).includes(role) ? '/admin' : '/me';
}

const HEADLINES = {
  pending: { title: 'VERIFICATION PENDING', icon: Hourglass, tone: 'text-gold-300', ring: 'border-gold-400' },
  verified: { title: 'PAYMENT VERIFIED!', icon: BadgeCheck, tone: 'text-jade-400', ring: 'border-jade-400' },
  rejected: { title: 'VERIFICATION REJECTED', icon: ShieldX, tone: 'text-ember-400', ring: 'border-ember-500' },
  none: { title: 'WELCOME TO THE TRIBE!', icon: Swords, tone: 'text-fire-400', ring: 'border-fire-500' },
} as const;

export default function VerifyPage() {
  const { user, refreshUser, logout } = useAuth();
  const location = useLocation();
  const navigate = useNavigate();
  const [lastUpdated, setLastUpdated] = useState<Date>(() => new Date());
  const [refreshing, setRefreshing] = useState(false);
  const [copied, setCopied] = useState(false);

  const stateCode = (location.state as { verificationCode?: unknown } | null)?.verificationCode;
  const code =
    (typeof stateCode === 'string' && stateCode) ||
    readStorage(STORAGE_KEYS.verificationCode) ||
    user?.verificationCode ||
    '';
  const status = user?.verificationStatus ?? null;
  // not_entered never shows: the page sends that rider to /join.
  const headline = HEADLINES[status === null || status === 'not_entered' ? 'none' : status];
  const queryClient = useQueryClient();
  // The reason and whether a new receipt may be sent; read only after a rejection (a
  // cash payer waiting without a receipt is not asked for one).
  const mine = useQuery({
    queryKey: [...MY_VERIFICATION_KEY, status],
    queryFn: fetchMyVerification,
    enabled: !!user && status === 'rejected',
  });

  const refresh = useCallback(
    async (announce: boolean) => {
      setRefreshing(true);
      try {
        await refreshUser();
        void queryClient.invalidateQueries({ queryKey: MY_VERIFICATION_KEY });
        setLastUpdated(new Date());
        if (announce) toast.success('Status updated!');
      } catch {
        if (announce) toast.error('Failed to refresh status');
      } finally {
        setRefreshing(false);
      }
    },
    [refreshUser, queryClient],
  );

  // Poll while an administrator has not yet reviewed the payment.
  useEffect(() => {
    if (status !== 'pending') return;
    const timer = setInterval(() => void refresh(false), VERIFY_POLL_INTERVAL_MS);
    return () => clearInterval(timer);
  }, [status, refresh]);

  useEffect(() => {
    if (status !== 'verified') return;
    const timer = setTimeout(() => navigate(landingFor(user?.role), { replace: true }), REDIRECT_DELAY_MS);
    return () => clearTimeout(timer);
  }, [status, user?.role, navigate]);

  if (!code && !user) return <Navigate to="/login" replace />;
  // A returning rider with no entry in the current edition yet: nothing to verify, join first.
  if (status === 'not_entered') return <Navigate to="/join" replace />;

  const onCopy = async () => {
    await copyText(code);
    setCopied(true);
    toast.success('Verification code copied to clipboard!');
    setTimeout(() => setCopied(false), 2000);
  };

  const onSignOut = () => {
    logout();
    navigate('/login', { replace: true });
  };

  const Icon = headline.icon;
  return (
    <AuthLayout wide>
      <PageMeta
        title="Verification"
        path="/verify"
        description="Your registration status for the Mindanao Warriors Endurance Rally."
      />
      <div className="text-center">
        <Icon className={`mx-auto size-16 ${headline.tone}`} aria-hidden="true" />
        <h1 className={`mt-3 text-4xl sm:text-5xl ${headline.tone}`}>{headline.title}</h1>
        {user && (
          <p className="mt-2 text-ash">
            {user.firstName} {user.lastName}
            {user.riderNumber !== null && user.riderNumber !== undefined && (
              <>
                {' · '}Rider <span className="font-bold text-bone">#{user.riderNumber}</span>
              </>
            )}
          </p>
        )}
      </div>

      <StatusMessage status={status} />
      {status === 'rejected' && mine.data && <RejectionReason notes={mine.data.rejection_notes} />}
      {status === 'rejected' && mine.data?.can_resubmit && <ResubmitReceipt onSent={() => refresh(false)} />}

      {code && (
        <div className={`mt-6 rounded-lg border-2 border-dashed ${headline.ring} bg-ink-950 p-4 text-center`}>
          <p className="text-sm font-bold tracking-widest text-ash uppercase">Your verification code</p>
          <p
            className="mt-2 font-mono text-3xl font-bold tracking-[0.15em] break-all text-bone"
            data-testid="verification-code"
          >
            {code}
          </p>
          <button type="button" onClick={onCopy} className={buttonStyles('secondary', 'md', 'mt-3')}>
            {copied ? <Check className="size-5" aria-hidden="true" /> : <Copy className="size-5" aria-hidden="true" />}
            {copied ? 'Copied' : 'Copy code'}
          </button>
        </div>
      )}

      {status !== 'verified' && (
        <div className="mt-6 rounded-lg bg-ink-950 p-4">
          <h2 className="text-xl text-fire-300">Next steps</h2>
          <ol className="mt-2 list-decimal space-y-1.5 pl-5 text-sm text-ash">
            <li>Keep your verification code. Staff use it to find your registration.</li>
            <li>An administrator checks your payment, usually within 24 to 48 hours.</li>
            <li>Paying in cash? Show the code at the registration desk.</li>
            <li>Once verified, your profile, rider code and kit details unlock.</li>
          </ol>
        </div>
      )}

      <div className="mt-6 flex flex-col gap-3 sm:flex-row sm:flex-wrap sm:justify-center">
        {status === 'verified' && (
          <Link to={landingFor(user?.role)} className={buttonStyles('primary')}>
            Access My Profile
          </Link>
        )}
        {status === 'rejected' && (
          <a
            href={`mailto:${SUPPORT_EMAIL}?subject=${encodeURIComponent(`Verification rejected: ${code}`)}`}
            className={buttonStyles('primary')}
          >
            <LifeBuoy className="size-5" aria-hidden="true" />
            Contact Support
          </a>
        )}
        <button
          type="button"
          onClick={() => void refresh(true)}
          disabled={refreshing}
          className={buttonStyles('secondary')}
        >
          <RefreshCw className={`size-5 ${refreshing ? 'animate-spin' : ''}`} aria-hidden="true" />
          Refresh
        </button>
        <button type="button" onClick={onSignOut} className={buttonStyles('ghost')}>
          <LogOut className="size-5" aria-hidden="true" />
          Sign Out
        </button>
      </div>
      <p className="mt-4 text-center text-xs text-ash" aria-live="polite">
        Last updated: {formatTime(lastUpdated)}
      </p>
    </AuthLayout>
  );
}

function StatusMessage({ status }: { status: string | null }) {
  if (status === 'verified') {
    return (
      <p role="status" className="mt-4 text-center font-bold text-jade-400">
        Payment verified! Redirecting to your profile...
      </p>
    );
  }
  if (status === 'rejected') {
    return (
      <p className="mt-4 text-center text-ash">
        We could not verify your payment. Contact support with your verification code and we will sort it out.
      </p>
    );
  }
  if (status === 'pending') {
    return (
      <p className="mt-4 text-center text-ash">
        Your registration is in. An administrator is reviewing your payment; this page checks for updates every 30
        seconds.
      </p>
    );
  }
  return <p className="mt-4 text-center text-ash">Your place in the tribe is being prepared.</p>;
}
