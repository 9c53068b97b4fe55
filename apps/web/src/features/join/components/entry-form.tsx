import { GENDERS, type Gender } from '@rally/shared/catalog/accounts';
import { STORAGE_KEYS } from '@rally/shared/catalog/web-client';
import type { NextEntry } from '@rally/shared/contracts/editions';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useCallback, useMemo, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import { useNavigate } from 'react-router';
import { buttonStyles } from '../../../components/ui/button-styles';
import { ApiError, isNetworkError } from '../../../lib/api-client';
import { type User, useAuth } from '../../../lib/auth';
import { joinDraftSlot } from '../../../lib/drafts-db';
import { editionsKey, useCurrentPrices } from '../../../lib/editions';
import { readStorage, writeStorage } from '../../../lib/storage';
import { toast } from '../../../lib/toast';
import { CONSENT_CHANGED_MESSAGE, isConsentRequired, noticeKeys, useCurrentNotice } from '../../privacy/api/notice-api';
import { takenNumbersKey } from '../../registration/api/registration-api';
import { ErrorSummary } from '../../registration/components/error-summary';
import { FormSection } from '../../registration/components/form-section';
import { PaymentSection } from '../../registration/components/payment-section';
import { SizesSection } from '../../registration/components/sizes-section';
import { TermsAgreement } from '../../registration/components/terms-agreement';
import { TrialChoice } from '../../registration/components/trial-choice';
import { UploadProgress } from '../../registration/components/upload-progress';
import { focusField } from '../../registration/lib/focus-field';
import { type ErrorField, fieldError, orderedProblems } from '../../registration/lib/registration-errors';
import {
  buildRegistrationPayload,
  type FieldSetter,
  type RegistrationFields,
} from '../../registration/lib/registration-form';
import { useRegistrationDraft } from '../../registration/lib/use-registration-draft';
import { submitEntry } from '../api/join-api';
import { entryFields, fieldsFromNext, joinDraft, joinFieldErrors, joinToast, ownDraftFields } from '../lib/join-form';
import { JoinNumberField } from './join-number-field';
import { RestoredEntryNotice } from './restored-entry-notice';
import { RiderContactSection } from './rider-contact-section';

const NOT_SENT = 'No connection. Your entry is kept on this phone: send it again when you have signal.';

/** The 409s that change what the form should offer: the numbers, or the window. */
function refreshAfter(error: unknown): readonly string[] | null {
  const code = error instanceof ApiError ? (error.body as { code?: unknown } | null)?.code : undefined;
  if (code === 'RIDER_NUMBER_TAKEN' || code === 'RIDER_NUMBER_HELD') return takenNumbersKey;
  if (code === 'REGISTRATION_CLOSED') return editionsKey;
  return null;
}

/**
 * The returning rider's entry: the registration's rider part, prefilled from their last
 * entry, kept on the phone as they change it (the registration's draft), sent with a new
 * receipt. Nothing typed is lost to a refusal or a dropped connection.
 */
export function EntryForm({ next, user }: { next: NextEntry; user: User }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const { refreshUser, setSession } = useAuth();
  const prices = useCurrentPrices();
  // The notice the terms row names: its version goes with the entry (DESIGN.md §12).
  const notice = useCurrentNotice().data;
  const prefilled = useMemo(() => fieldsFromNext(next), [next]);
  // Null until the rider changes something: the form shows the prefill, and nothing is kept.
  const [edited, setEdited] = useState<RegistrationFields | null>(null);
  const fields = edited ?? prefilled;
  const [receipt, setReceipt] = useState<File | null>(null);
  const [restored, setRestored] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const [progress, setProgress] = useState<number | null>(null);
  const [attempted, setAttempted] = useState(false);
  // Each year's rally is its own agreement: asked again, never kept in the draft.
  const [agreed, setAgreed] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);

  const draftState = useMemo(() => joinDraft(edited, receipt, user.email), [edited, receipt, user.email]);
  const draft = useRegistrationDraft(
    draftState,
    (kept) => {
      const own = ownDraftFields(kept, user.email);
      if (!own) return;
      setEdited(own);
      setReceipt(kept.receipt);
      setRestored(true);
    },
    joinDraftSlot(user.id),
  );
  const startOver = () => {
    void draft.discard();
    setEdited(null);
    setReceipt(null);
    setRestored(false);
    setAttempted(false);
  };

  const set: FieldSetter = useCallback(
    (field, value) => setEdited((f) => ({ ...(f ?? prefilled), [field]: value })),
    [prefilled],
  );
  const setRiderNumber = useCallback((n: number | null) => set('riderNumber', n), [set]);

  const hasReceipt = receipt !== null;
  const errors = attempted ? joinFieldErrors(fields, hasReceipt, agreed) : {};
  const problems = orderedProblems(errors);
  const goTo = (field: ErrorField) => {
    if (formRef.current) focusField(formRef.current, field);
  };
  const gender: Gender | '' = (GENDERS as readonly string[]).includes(user.gender ?? '') ? (user.gender as Gender) : '';
  const held = next.heldNumber !== null && next.heldUntil ? { number: next.heldNumber, until: next.heldUntil } : null;

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (submitting) return;
    const all = joinFieldErrors(fields, hasReceipt, agreed);
    const problem = joinToast(fields, hasReceipt, agreed, all);
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
        entryFields(fields),
        { profileImage: null, paymentReceipt: fields.paymentMethod === 'cash' ? null : receipt },
        prices,
      );
      if (notice) payload.append('consentVersion', String(notice.version));
      const answer = await submitEntry(payload, setProgress);
      const { entry } = answer.data;
      writeStorage(STORAGE_KEYS.verificationCode, entry.verificationCode);
      await draft.finish();
      // The stored record says so at once (the verification screen reads it), then the server's own arrives.
      const token = readStorage(STORAGE_KEYS.token);
      if (token) {
        const { verificationStatus, verificationCode, riderNumber, category } = entry;
        setSession(token, { ...user, verificationStatus, verificationCode, riderNumber, category });
      }
      void refreshUser().catch(() => undefined);
      void queryClient.invalidateQueries({ queryKey: takenNumbersKey });
      // What went wrong before is settled now.
      toast.dismiss();
      toast.success(answer.message || 'Entry received! Staff will verify your payment.');
      navigate('/verify', { replace: true, state: { verificationCode: entry.verificationCode } });
    } catch (error) {
      const offline = isNetworkError(error) || (error instanceof Error && error.message === 'Request timeout');
      const consentStale = isConsentRequired(error);
      toast.error(
        offline
          ? NOT_SENT
          : consentStale
            ? CONSENT_CHANGED_MESSAGE
            : error instanceof Error && error.message
              ? error.message
              : NOT_SENT,
      );
      if (consentStale) {
        // A new version was published while the form was open: the newest is shown, to agree to again.
        void queryClient.invalidateQueries({ queryKey: noticeKeys.all });
        setAgreed(false);
      }
      const stale = refreshAfter(error);
      if (stale) void queryClient.invalidateQueries({ queryKey: stale });
      // Entered meanwhile (another tab): the record says so, and the page moves on.
      if (error instanceof ApiError && (error.body as { code?: unknown } | null)?.code === 'ENTRY_EXISTS') {
        void refreshUser().catch(() => undefined);
      }
      setSubmitting(false);
      setProgress(null);
    }
  };

  return (
    // noValidate: the entry's checks run in their fixed order as toasts, not as browser bubbles.
    <form ref={formRef} onSubmit={onSubmit} noValidate aria-label={`Join ${next.edition.name}`}>
      <div className="min-w-0 space-y-6">
        {restored && <RestoredEntryNotice onStartOver={startOver} onDismiss={() => setRestored(false)} />}
        {problems.length > 0 && <ErrorSummary problems={problems} onSelect={goTo} />}
        <FormSection
          number={1}
          title="Rider Number"
          description={held ? 'Keep your number, or pick any free one.' : 'Pick any free number from 1 to 1000.'}
        >
          <JoinNumberField
            value={fields.riderNumber}
            onChange={setRiderNumber}
            held={held}
            error={fieldError(errors, 'riderNumber')}
          />
        </FormSection>
        <FormSection
          number={2}
          title="Gear & Clothing Sizes"
          description="This year's T-shirt, finisher sleeve and vest."
        >
          <SizesSection fields={fields} set={set} errors={errors} />
        </FormSection>
        <FormSection
          number={3}
          title="Kit & Emergency Contact"
          description="Who we call if something happens on the road."
        >
          <RiderContactSection fields={fields} set={set} errors={errors} />
        </FormSection>
        <FormSection number={4} title="Choose Your Trial" description="OBR: Official Back Ride, riding with a pillion.">
          <TrialChoice
            value={fields.category}
            gender={gender}
            onChange={(c) => set('category', c)}
            error={fieldError(errors, 'category')}
          />
        </FormSection>
        <FormSection number={5} title="Payment" description="A new receipt for this year's entry.">
          <PaymentSection
            method={fields.paymentMethod}
            category={fields.category}
            receipt={receipt}
            onMethod={(m) => set('paymentMethod', m)}
            onReceipt={setReceipt}
            receiptError={fieldError(errors, 'paymentReceipt')}
          />
        </FormSection>
        <TermsAgreement agreed={agreed} onAgreed={setAgreed} error={errors.agreedToTerms} action="joining" />
        {progress !== null && <UploadProgress percent={progress} />}
        <button type="submit" disabled={submitting} className={buttonStyles('primary', 'lg', 'w-full text-2xl')}>
          {submitting ? 'JOINING...' : 'JOIN THE RALLY'}
        </button>
      </div>
    </form>
  );
}
