// One version of the notice as riders read it: which version and when, then the privacy
// notice and the terms, each a section of its own (the /privacy page and the sign-in gate).
import type { PrivacyNotice } from '@rally/shared/contracts/privacy';
import { formatDate } from '../../../lib/format';
import { MarkdownView } from './markdown-view';

export function NoticeTexts({ notice, headingLevel = 2 }: { notice: PrivacyNotice; headingLevel?: 2 | 3 }) {
  const Heading = `h${headingLevel}` as 'h2';
  return (
    <div className="grid gap-6">
      <p data-testid="notice-version" className="text-sm font-bold tracking-wide text-ash uppercase">
        Version {notice.version} · published {formatDate(notice.publishedAt)}
      </p>
      <section aria-labelledby="notice-privacy" className="rounded-xl border border-ink-700 bg-ink-900 p-4 sm:p-6">
        <Heading id="notice-privacy" className="text-3xl text-fire-300">
          Privacy Notice
        </Heading>
        <MarkdownView text={notice.privacy.text} headingBase={headingLevel + 1} className="mt-4" />
      </section>
      <section aria-labelledby="notice-terms" className="rounded-xl border border-ink-700 bg-ink-900 p-4 sm:p-6">
        <Heading id="notice-terms" className="text-3xl text-fire-300">
          Terms and Conditions
        </Heading>
        <MarkdownView text={notice.terms.text} headingBase={headingLevel + 1} className="mt-4" />
      </section>
    </div>
  );
}
