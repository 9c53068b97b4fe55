import { REDIRECT_DELAY_MS, STORAGE_KEYS } from '@rally/shared/catalog/web-client';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { Link, Navigate, useNavigate } from 'react-router';
import { SiteFooter } from '../../../components/layout/site-footer';
import { SiteHeader } from '../../../components/layout/site-header';
import { buttonStyles } from '../../../components/ui/button-styles';
import { HydratedFieldset } from '../../../components/ui/hydrated-fieldset';
import { PageMeta } from '../../../components/ui/page-meta';
import { FullScreenSpinner } from '../../../components/ui/spinner';
import { ApiError } from '../../../lib/api-client';
import { useAuth } from '../../../lib/auth';
import { useCurrentPrices } from '../../../lib/editions';
import { writeStorage } from '../../../lib/storage';
import { toast } from '../../../lib/toast';
import { CONSENT_CHANGED_MESSAGE, isConsentRequired, noticeKeys, useCurrentNotice } from '../../privacy/api/notice-api';
import { submitRegistration, takenNumbersKey } from '../api/registration-api';
import { DraftNotice } from '../components/draft-notice';
import { ErrorSummary } from '../components/error-summary';
import { FormSection } from '../components/form-section';
import { IdentitySection } from '../components/identity-section';
import { PaymentSection } from '../components/payment-section';
import { RegistrationWindowNotice } from '../components/registration-window-notice';
import { RiderNumberField } from '../components/rider-number-field';
import { SecurityCheckNotice } from '../components/security-check-notice';
import { EmergencyContactSection, MotorcycleSection } from '../components/simple-sections';
import { SizesSection } from '../components/sizes-section';
import { TermsAgreement } from '../components/terms-agreement';
import { TrialChoice } from '../components/trial-choice';
import { UploadProgress } from '../components/upload-progress';
import { focusField } from '../lib/focus-field';
import type { RegistrationDraft } from '../lib/registration-draft';
import {
  type ErrorField,
  fieldError,
  orderedProblems,
  registrationFieldErrors,
  registrationToast,
} from '../lib/registration-errors';
import {
  buildRegistrationPayload,
  EMPTY_REGISTRATION,
  type FieldSetter,
  type RegistrationFields,
} from '../lib/registration-form';
import { useRegistrationDraft } from '../lib/use-registration-draft';

export default function RegisterPage() {
  const { isAuthenticated, isLoading, setSession } = useAuth();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const prices = useCurrentPrices();
  // The notice the terms row names: its version goes with the registration (DESIGN.md §12).
  const notice = useCurrentNotice().data;

  const [fields, setFields] = useState<RegistrationFields>(EMPTY_REGISTRATION);
  const [profileImage, setProfileImage] = useState<File | null>(null);
  const [receipt, setReceipt] = useState<File | null>(null);
  const [agreed, setAgreed] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [progress, setProgress] = useState<number | null>(null);
  // The phone is solving the server's security check (a busy network): submitRegistration.
  const [checking, setChecking] = useState(false);
  // Set on success so the "signed-in visitors leave /register" rule does not fire
  // during the 2 s before the redirect to /verify.
  const [registered, setRegistered] = useState(false);
  // Set by the first submit: from then on every problem shows under its field and in the
  // summary, and each disappears as soon as it is fixed.
  const [attempted, setAttempted] = useState(false);
  const redirectTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const formRef = useRef<HTMLFormElement>(null);

  const draftState = useMemo<RegistrationDraft>(
    () => ({ fields, agreed, profileImage, receipt }),
    [fields, agreed, profileImage, receipt],
  );
  const draft = useRegistrationDraft(draftState, (kept) => {
    setFields({ ...EMPTY_REGISTRATION, ...kept.fields });
    setAgreed(kept.agreed);
    setProfileImage(kept.profileImage);
    setReceipt(kept.receipt);
  });
  const startOver = () => {
    void draft.discard();
    setFields(EMPTY_REGISTRATION);
    setAgreed(false);
    setProfileImage(null);
    setReceipt(null);
    setAttempted(false);
    formRef.current?.querySelector<HTMLInputElement>('input[name="firstName"]')?.focus();
  };

  const extras = { hasReceipt: receipt !== null, agreed };
  const errors = attempted ? registrationFieldErrors(fields, extras) : {};
  const problems = orderedProblems(errors);
  const goTo = (field: ErrorField) => {
    if (formRef.current) focusField(formRef.current, field);
  };

  useEffect(() => () => clearTimeout(redirectTimer.current), []);

  const set: FieldSetter = useCallback((field, value) => setFields((f) => ({ ...f, [field]: value })), []);
  const setRiderNumber = useCallback((n: number | null) => set('riderNumber', n), [set]);

  if (isLoading) return <FullScreenSpinner label="Authenticating warrior..." />;
  if (isAuthenticated && !registered) return <Navigate to="/profile" replace />;

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (submitting || registered) return;
    const all = registrationFieldErrors(fields, extras);
    const problem = registrationToast(fields, extras, all);
    if (problem) {
      toast.error(problem);
      // Rendered now, so the first field's message exists when focus lands on it.
      flushSync(() => setAttempted(true));
      const first = orderedProblems(all)[0];
      if (first) goTo(first.field);
      return;
    }

    setSubmitting(true);
    setProgress(0);
    try {
      const payload = buildRegistrationPayload(
        fields,
        { profileImage, paymentReceipt: fields.paymentMethod === 'cash' ? null : receipt },
        prices,
      );
      if (notice) payload.append('consentVersion', String(notice.version));
      const response = await submitRegistration(payload, setProgress, setChecking);
      const user = response?.data?.user;
      if (!response?.success || !response.token || !user) {
        throw new Error(response?.message || 'Registration failed. Please try again.');
      }
      const verificationCode = user.verificationCode ?? '';
      if (verificationCode) writeStorage(STORAGE_KEYS.verificationCode, verificationCode);
      setRegistered(true);
      await draft.finish();
      setSession(response.token, user);
      toast.success(response.message || 'Welcome to the tribe, warrior! Your registration is in.');
      redirectTimer.current = setTimeout(
        () => navigate('/verify', { replace: true, state: { verificationCode } }),
        REDIRECT_DELAY_MS,
      );
    } catch (error) {
      const stale = isConsentRequired(error);
      const message = stale
        ? CONSENT_CHANGED_MESSAGE
        : error instanceof Error && error.message
          ? error.message
          : 'Registration failed. Please try again.';
      toast.error(message);
      if (stale) {
        // A new version was published while the form was open: the newest is shown, to agree to again.
        void queryClient.invalidateQueries({ queryKey: noticeKeys.all });
        setAgreed(false);
      }
      if (error instanceof ApiError && error.status === 409) {
        void queryClient.invalidateQueries({ queryKey: takenNumbersKey });
      }
      setSubmitting(false);
      setProgress(null);
    }
  };

  return (
    <div className="min-h-dvh bg-ink-950">
      <PageMeta
        title="Register"
        path="/register"
        description="Claim your rider number and register for the Mindanao Warriors Endurance Rally, November 15-16, 2025."
      />
      <SiteHeader />
      <main id="main" className="mx-auto max-w-4xl px-3 py-8 sm:px-4 sm:py-12">
        <div className="mb-8 text-center">
          <p className="font-display text-lg tracking-[0.3em] text-fire-400">Registration</p>
          <h1 className="mt-1 text-5xl sm:text-6xl">
            Join The <span className="fire-text">Warriors</span>
          </h1>
          <p className="mx-auto mt-3 max-w-xl text-ash">
            Fill in every section, choose your trial and claim your number. Fields marked{' '}
            <span className="font-bold text-fire-400">*</span> are required.
          </p>
          <p className="mt-2 text-sm text-ash">
            Already registered?{' '}
            <Link to="/login" className="font-bold text-fire-300 underline underline-offset-4">
              Log in
            </Link>
          </p>
        </div>

        <RegistrationWindowNotice />
        {/* noValidate: the registration checks run in their fixed order as toasts, not as browser bubbles. */}
        <form ref={formRef} onSubmit={onSubmit} noValidate aria-label="Registration">
          {/* The server sends this form prerendered: it takes input once React owns it. */}
          <HydratedFieldset className="min-w-0 space-y-6">
            {draft.restored && <DraftNotice onStartOver={startOver} onDismiss={draft.dismissNotice} />}
            {problems.length > 0 && <ErrorSummary problems={problems} onSelect={goTo} />}
            <FormSection number={1} title="Warrior Identity" description="Who rides under this number.">
              <IdentitySection
                fields={fields}
                set={set}
                profileImage={profileImage}
                onProfileImage={setProfileImage}
                errors={errors}
              />
            </FormSection>

            <FormSection number={2} title="Rider Number" description="Pick any free number from 1 to 1000.">
              <RiderNumberField
                value={fields.riderNumber}
                onChange={setRiderNumber}
                registered={registered}
                error={fieldError(errors, 'riderNumber')}
              />
            </FormSection>

            <FormSection
              number={3}
              title="Gear & Clothing Sizes"
              description="Your rally T-shirt, finisher sleeve and vest."
            >
              <SizesSection fields={fields} set={set} errors={errors} />
            </FormSection>

            <FormSection
              number={4}
              title="Emergency Contact"
              description="Who we call if something happens on the road."
            >
              <EmergencyContactSection fields={fields} set={set} errors={errors} />
            </FormSection>

            <FormSection number={5} title="Motorcycle & Club">
              <MotorcycleSection fields={fields} set={set} />
            </FormSection>

            <FormSection
              number={6}
              title="Choose Your Trial"
              description="OBR: Official Back Ride, riding with a pillion."
            >
              <TrialChoice
                value={fields.category}
                gender={fields.gender}
                onChange={(c) => set('category', c)}
                error={fieldError(errors, 'category')}
              />
            </FormSection>

            <FormSection number={7} title="Payment Method">
              <PaymentSection
                method={fields.paymentMethod}
                category={fields.category}
                receipt={receipt}
                onMethod={(m) => set('paymentMethod', m)}
                onReceipt={setReceipt}
                receiptError={fieldError(errors, 'paymentReceipt')}
              />
            </FormSection>

            <TermsAgreement agreed={agreed} onAgreed={setAgreed} error={errors.agreedToTerms} />

            <SecurityCheckNotice active={checking} />
            {progress !== null && !checking && <UploadProgress percent={progress} />}

            <button type="submit" disabled={submitting} className={buttonStyles('primary', 'lg', 'w-full text-2xl')}>
              {submitting ? 'JOINING THE TRIBE...' : 'CLAIM YOUR DESTINY'}
            </button>
          </HydratedFieldset>
        </form>
      </main>
      <SiteFooter />
    </div>
  );
}
