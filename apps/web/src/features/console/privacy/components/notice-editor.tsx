// The console's privacy notice and terms (DESIGN.md §12, manage_event): both texts in
// Markdown, prefilled with the current version, previewed as riders will read them, and
// published together as the next version. Every rider is then asked to accept it.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { FileText, Send } from 'lucide-react';
import { useState } from 'react';
import { buttonStyles } from '../../../../components/ui/button-styles';
import { ApiError } from '../../../../lib/api-client';
import { formatDate } from '../../../../lib/format';
import { toast } from '../../../../lib/toast';
import { codeOf, noticeKeys, noticeQuery, publishNotice } from '../../../privacy/api/notice-api';
import { LoadingPanel } from '../../components/list-states';
import { NOTICE_MIN_CHARS, NoticeField } from './notice-field';
import { NoticePublishDialog } from './notice-publish-dialog';

function publishProblem(error: unknown): string {
  if (codeOf(error) === 'NOTICE_UNCHANGED') return 'Nothing changed: both texts are the same as the current version.';
  if (error instanceof ApiError) return error.message;
  return 'Failed to reach the server. Nothing was published; try again.';
}

export function NoticeEditor() {
  const queryClient = useQueryClient();
  const current = useQuery({ ...noticeQuery(null), retry: false });
  // Null until edited: the fields show the current texts.
  const [privacyEdit, setPrivacyEdit] = useState<string | null>(null);
  const [termsEdit, setTermsEdit] = useState<string | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [attempted, setAttempted] = useState(false);
  const [preview, setPreview] = useState(false);

  // No notice yet (404) is a first publication, not a failure.
  const none = current.error instanceof ApiError && current.error.status === 404;
  const publish = useMutation({
    mutationFn: (texts: { privacy: string; terms: string }) => publishNotice(texts.privacy, texts.terms),
    onSuccess: async (published) => {
      setConfirming(false);
      setPrivacyEdit(null);
      setTermsEdit(null);
      setAttempted(false);
      queryClient.setQueryData(noticeKeys.version(null), published);
      void queryClient.invalidateQueries({ queryKey: noticeKeys.all });
      toast.success(`Version ${published.version} is published.`);
    },
    onError: () => setConfirming(false),
  });

  if (current.isPending) return <LoadingPanel label="Loading the privacy notice..." />;

  const notice = current.data;
  const privacyText = privacyEdit ?? notice?.privacy.text ?? '';
  const termsText = termsEdit ?? notice?.terms.text ?? '';
  const nextVersion = (notice?.version ?? 0) + 1;
  const unchanged =
    notice !== undefined &&
    privacyText.trim() === notice.privacy.text.trim() &&
    termsText.trim() === notice.terms.text.trim();
  const tooShort = (text: string, what: string) =>
    text.trim().length < NOTICE_MIN_CHARS ? `${what} must be at least ${NOTICE_MIN_CHARS} characters.` : undefined;
  const privacyError = attempted ? tooShort(privacyText, 'The privacy notice') : undefined;
  const termsError = attempted ? tooShort(termsText, 'The terms') : undefined;

  const onPublish = () => {
    setAttempted(true);
    publish.reset();
    if (tooShort(privacyText, '') || tooShort(termsText, '')) {
      // The problem shows under its field: bring the fields back.
      setPreview(false);
      return;
    }
    setConfirming(true);
  };

  return (
    <section aria-labelledby="notice-editor-heading" data-testid="notice-editor" className="grid gap-5">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h3 id="notice-editor-heading" className="flex items-center gap-2 text-2xl text-fire-300">
            <FileText className="size-6 text-fire-400" aria-hidden="true" />
            Privacy notice and terms
          </h3>
          <p data-testid="notice-current" className="mt-1 text-ash">
            {notice ? (
              <>
                Current: <strong className="text-bone">version {notice.version}</strong>, published{' '}
                {formatDate(notice.publishedAt)}.{' '}
                <a href="/privacy" target="_blank" rel="noopener" className="font-bold text-fire-300 underline">
                  Open the public page
                </a>
              </>
            ) : none ? (
              'Nothing is published yet: the first version you publish is what riders accept.'
            ) : (
              <span role="alert" className="font-bold text-ember-400">
                Failed to load the current notice.{' '}
                <button type="button" className="underline" onClick={() => void current.refetch()}>
                  Retry
                </button>
              </span>
            )}
          </p>
        </div>
      </div>

      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm text-ash">
          Markdown: <code className="text-bone"># Heading</code>, a blank line between paragraphs,{' '}
          <code className="text-bone">- bullet</code>, <code className="text-bone">**bold**</code>,{' '}
          <code className="text-bone">[text](https://...)</code>.
        </p>
        <fieldset className="flex gap-1 rounded-lg border border-ink-700 p-1">
          <legend className="sr-only">Show the texts as</legend>
          {(
            [
              [false, 'Write'],
              [true, 'Preview'],
            ] as const
          ).map(([on, text]) => (
            <button
              key={text}
              type="button"
              aria-pressed={preview === on}
              onClick={() => setPreview(on)}
              className={`min-h-11 rounded-md px-4 font-bold ${
                preview === on ? 'bg-ink-700 text-bone' : 'text-ash hover:bg-ink-800 hover:text-bone'
              }`}
            >
              {text}
            </button>
          ))}
        </fieldset>
      </div>

      <div className="grid gap-5 xl:grid-cols-2">
        <NoticeField
          id="notice-privacy-text"
          label="Privacy notice"
          value={privacyText}
          onChange={setPrivacyEdit}
          error={privacyError}
          preview={preview}
        />
        <NoticeField
          id="notice-terms-text"
          label="Terms and Conditions"
          value={termsText}
          onChange={setTermsEdit}
          error={termsError}
          preview={preview}
        />
      </div>

      <div className="flex flex-col gap-3 rounded-lg border border-ink-700 bg-ink-900 p-4 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-sm text-ash">
          {unchanged
            ? 'Change either text to publish a new version.'
            : 'Publishing makes both texts the current version. Earlier versions stay readable.'}
        </p>
        <button
          type="button"
          onClick={onPublish}
          disabled={unchanged || publish.isPending || (current.isError && !none)}
          className={buttonStyles('primary', 'md', 'shrink-0')}
        >
          <Send className="size-5" aria-hidden="true" />
          Publish version {nextVersion}
        </button>
      </div>
      {publish.isError && (
        <p role="alert" data-testid="notice-publish-error" className="font-bold text-ember-400">
          {publishProblem(publish.error)}
        </p>
      )}

      <NoticePublishDialog
        open={confirming}
        version={nextVersion}
        busy={publish.isPending}
        onClose={() => setConfirming(false)}
        onConfirm={() => publish.mutate({ privacy: privacyText, terms: termsText })}
      />
    </section>
  );
}
