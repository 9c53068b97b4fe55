// One export of the Reports tab: what it holds, how many rows it has now, when it was last
// downloaded and by whom, and a button per file format.
import type { ExportFormat, ExportSummary } from '@rally/shared/contracts/exports';
import { Download, FileSpreadsheet } from 'lucide-react';
import { buttonStyles } from '../../../../components/ui/button-styles';
import { formatRelativeTime } from '../../../../lib/format';

/** Each format: its short button text and its full name for screen readers. */
const FORMATS: ReadonlyArray<readonly [ExportFormat, string, string]> = [
  ['xlsx', 'Excel', 'Excel (XLSX)'],
  ['csv', 'CSV', 'CSV'],
];

export function ExportCard({
  summary,
  busy,
  onDownload,
}: {
  summary: ExportSummary;
  /** The format being downloaded now, if any. */
  busy: ExportFormat | null;
  onDownload: (format: ExportFormat) => void;
}) {
  const headingId = `export-${summary.name}`;
  return (
    <article
      aria-labelledby={headingId}
      data-testid="export-card"
      data-export={summary.name}
      className="flex min-w-0 flex-col gap-3 rounded-lg border-2 border-ink-700 bg-ink-900 p-4"
    >
      <div className="flex items-start gap-3">
        <span className="flex size-11 shrink-0 items-center justify-center rounded-md bg-ink-800 text-fire-400">
          <FileSpreadsheet className="size-6" aria-hidden="true" />
        </span>
        <div className="min-w-0">
          <h3 id={headingId} className="text-xl leading-tight text-bone">
            {summary.title}
          </h3>
          <p className="mt-1 text-sm text-ash">{summary.description}</p>
        </div>
      </div>
      <dl className="grid grid-cols-2 gap-2 text-sm">
        <div className="rounded-md bg-ink-850 px-3 py-2">
          <dt className="text-xs font-bold uppercase tracking-wide text-smoke">Rows</dt>
          <dd className="font-display text-2xl text-bone" data-testid="export-rows">
            {summary.rows.toLocaleString('en-PH')}
          </dd>
        </div>
        <div className="min-w-0 rounded-md bg-ink-850 px-3 py-2">
          <dt className="text-xs font-bold uppercase tracking-wide text-smoke">Last downloaded</dt>
          <dd className="wrap-anywhere text-bone" data-testid="export-last">
            {summary.lastDownloadedAt ? (
              <>
                <time dateTime={summary.lastDownloadedAt}>{formatRelativeTime(summary.lastDownloadedAt)}</time>
                {summary.lastDownloadedBy && (
                  <span className="block text-xs text-ash">by {summary.lastDownloadedBy}</span>
                )}
              </>
            ) : (
              'Never'
            )}
          </dd>
        </div>
      </dl>
      <div className="mt-auto grid grid-cols-1 gap-2 min-[400px]:grid-cols-2">
        {FORMATS.map(([format, label, fullName]) => (
          <button
            key={format}
            type="button"
            onClick={() => onDownload(format)}
            disabled={busy !== null}
            aria-label={`Download ${summary.title} as ${fullName}`}
            className={buttonStyles(format === 'xlsx' ? 'primary' : 'secondary', 'md', 'w-full')}
          >
            <Download className="size-4" aria-hidden="true" />
            {busy === format ? 'Preparing…' : label}
          </button>
        ))}
      </div>
    </article>
  );
}
