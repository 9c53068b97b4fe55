// /privacy (DESIGN.md §12): the privacy notice and the terms now in force, or with
// `?version=N` an earlier version (what a rider accepted, linked from My Profile), marked
// as not the current one.
import { useQuery } from '@tanstack/react-query';
import { History, ShieldCheck } from 'lucide-react';
import { Link, useSearchParams } from 'react-router';
import { SiteFooter } from '../../../components/layout/site-footer';
import { SiteHeader } from '../../../components/layout/site-header';
import { buttonStyles } from '../../../components/ui/button-styles';
import { PageMeta } from '../../../components/ui/page-meta';
import { Spinner } from '../../../components/ui/spinner';
import { ApiError } from '../../../lib/api-client';
import { noticeQuery } from '../api/notice-api';
import { NoticeTexts } from '../components/notice-texts';

/** `?version=N` as a version number; anything else reads as the current notice. */
export function versionParam(raw: string | null): number | null {
  if (raw === null || !/^\d{1,7}$/.test(raw.trim())) return null;
  const n = Number(raw);
  return n >= 1 ? n : null;
}

export default function PrivacyPage() {
  const [params] = useSearchParams();
  const asked = versionParam(params.get('version'));
  const notice = useQuery(noticeQuery(asked));
  const current = useQuery({ ...noticeQuery(null), enabled: asked !== null });
  const isOld = asked !== null && current.data !== undefined && current.data.version !== asked;

  return (
    <div className="min-h-dvh bg-ink-950">
      <PageMeta
        title="Privacy Notice"
        path="/privacy"
        description="How the Mindanao Warriors Endurance Rally collects, uses and keeps riders' personal data, and the rally's terms."
      />
      <SiteHeader />
      <main id="main" className="mx-auto max-w-3xl px-3 py-8 sm:px-4 sm:py-12">
        <div className="mb-6">
          <p className="flex items-center gap-2 font-display text-lg tracking-[0.3em] text-fire-400">
            <ShieldCheck className="size-5" aria-hidden="true" />
            Your data
          </p>
          <h1 className="mt-1 text-5xl sm:text-6xl">Privacy Notice</h1>
          <p className="mt-2 text-ash">
            Under the Data Privacy Act of 2012 (RA 10173). The terms of the rally follow the notice.
          </p>
        </div>

        {notice.data ? (
          <>
            {isOld && current.data && (
              <div
                role="note"
                data-testid="old-notice"
                className="mb-6 flex flex-col gap-3 rounded-xl border-2 border-gold-500 bg-gold-500/10 p-4 text-gold-300 sm:flex-row sm:items-center sm:justify-between"
              >
                <p className="flex items-start gap-2 font-bold">
                  <History className="mt-0.5 size-5 shrink-0" aria-hidden="true" />
                  This is version {notice.data.version}. It is not the current notice (version {current.data.version}
                  ).
                </p>
                <Link to="/privacy" className={buttonStyles('secondary', 'md', 'shrink-0')}>
                  Read the current one
                </Link>
              </div>
            )}
            <NoticeTexts notice={notice.data} />
          </>
        ) : notice.isPending ? (
          <Spinner label="Loading the privacy notice..." className="py-16" />
        ) : (
          <div role="alert" className="rounded-xl border border-ember-600 bg-ember-700/10 p-6 text-center">
            <p className="font-bold text-bone">
              {notice.error instanceof ApiError && notice.error.status === 404
                ? asked !== null
                  ? `There is no version ${asked} of the privacy notice.`
                  : 'No privacy notice has been published yet.'
                : 'Failed to load the privacy notice.'}
            </p>
            <div className="mt-4 flex flex-wrap justify-center gap-3">
              {!(notice.error instanceof ApiError && notice.error.status < 500) && (
                <button type="button" className={buttonStyles('secondary')} onClick={() => void notice.refetch()}>
                  Retry
                </button>
              )}
              {asked !== null && (
                <Link to="/privacy" className={buttonStyles('ghost')}>
                  Read the current notice
                </Link>
              )}
            </div>
          </div>
        )}
      </main>
      <SiteFooter />
    </div>
  );
}
