// One text of the notice editor: its Markdown, and a preview as riders will read it.
import { inputStyles, labelStyles } from '../../../../components/ui/field-styles';
import { FieldError } from '../../../../components/ui/text-field';
import { MarkdownView } from '../../../privacy/components/markdown-view';

/** As the contract asks (putPrivacyNoticeRequest). */
export const NOTICE_MIN_CHARS = 20;
export const NOTICE_MAX_CHARS = 50_000;

export function NoticeField({
  id,
  label,
  value,
  onChange,
  error,
  preview,
}: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  error: string | undefined;
  /** Shown as riders will read it, instead of the Markdown. */
  preview: boolean;
}) {
  const errorId = `${id}-error`;
  return (
    <div className="grid min-w-0 content-start gap-2">
      {preview ? (
        <>
          <p className={`${labelStyles} mb-0`}>{label}: preview</p>
          <div
            data-testid={`${id}-preview`}
            className="max-h-[32rem] min-h-64 overflow-y-auto rounded-md border-2 border-ink-700 bg-ink-900 p-4 text-sm"
          >
            {value.trim() ? <MarkdownView text={value} headingBase={4} /> : <p className="text-smoke">Nothing yet.</p>}
          </div>
        </>
      ) : (
        <>
          <label htmlFor={id} className={`${labelStyles} mb-0`}>
            {label} (Markdown)
          </label>
          <textarea
            id={id}
            value={value}
            onChange={(e) => onChange(e.target.value)}
            rows={16}
            maxLength={NOTICE_MAX_CHARS}
            spellCheck
            aria-invalid={error ? true : undefined}
            aria-describedby={`${id}-help${error ? ` ${errorId}` : ''}`}
            className={`${inputStyles} min-h-64 font-mono text-sm leading-relaxed`}
          />
        </>
      )}
      <p id={`${id}-help`} className="text-xs text-smoke">
        {value.length.toLocaleString('en-PH')} characters.
      </p>
      {error && <FieldError id={errorId}>{error}</FieldError>}
    </div>
  );
}
