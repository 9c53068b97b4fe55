import { ANNOUNCEMENT_TITLE_MAX } from '@rally/shared/catalog/console';
import {
  type AdminAnnouncement,
  ANNOUNCEMENT_CONTENT_MAX,
  announcementProblem,
} from '@rally/shared/contracts/announcements';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { inputStyles, labelStyles } from '../../../../components/ui/field-styles';
import { FormModal } from '../../../../components/ui/form-modal';
import type { AnnouncementInput } from '../api/announcements-api';

/** `editing` undefined: closed; null: creating; an announcement: editing it. */
export function AnnouncementModal({
  editing,
  saving,
  onSave,
  onClose,
}: {
  editing: AdminAnnouncement | null | undefined;
  saving: boolean;
  onSave: (input: AnnouncementInput) => void;
  onClose: () => void;
}) {
  const [title, setTitle] = useState('');
  const [content, setContent] = useState('');
  const [active, setActive] = useState(true);
  const [problem, setProblem] = useState<string | null>(null);
  const ids = { title: useId(), content: useId(), active: useId(), count: useId(), problem: useId() };
  const open = editing !== undefined;

  useEffect(() => {
    if (editing === undefined) return;
    setTitle(editing?.title ?? '');
    setContent(editing?.content ?? '');
    setActive(editing?.is_active ?? true);
    setProblem(null);
  }, [editing]);

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = announcementProblem({ title, content });
    setProblem(found);
    if (found) return;
    onSave({ title: title.trim(), content: content.trim(), is_active: active });
  };

  const formId = `${ids.title}-form`;
  return (
    <FormModal
      open={open}
      onClose={onClose}
      title={editing ? 'Edit Announcement' : 'Create New Announcement'}
      formId={formId}
      onSubmit={submit}
      saving={saving}
      submitLabel={editing ? 'Update Announcement' : 'Create Announcement'}
      formClassName="space-y-4"
    >
      <div>
        <div className="flex items-end justify-between gap-3">
          <label htmlFor={ids.title} className={labelStyles}>
            Title
            <span className="ml-1 text-fire-400" aria-hidden="true">
              *
            </span>
          </label>
          <span id={ids.count} className="mb-1.5 text-xs text-smoke" aria-live="polite">
            {title.length}/{ANNOUNCEMENT_TITLE_MAX}
          </span>
        </div>
        <input
          id={ids.title}
          value={title}
          onChange={(e) => setTitle(e.target.value)}
          maxLength={ANNOUNCEMENT_TITLE_MAX}
          required
          aria-describedby={`${ids.count}${problem ? ` ${ids.problem}` : ''}`}
          aria-invalid={problem?.startsWith('Title') || undefined}
          className={inputStyles}
          placeholder="e.g. Rider briefing moved to 5 AM"
        />
      </div>
      <div>
        <label htmlFor={ids.content} className={labelStyles}>
          Content
          <span className="ml-1 text-fire-400" aria-hidden="true">
            *
          </span>
        </label>
        <textarea
          id={ids.content}
          value={content}
          onChange={(e) => setContent(e.target.value)}
          maxLength={ANNOUNCEMENT_CONTENT_MAX}
          required
          rows={7}
          aria-invalid={problem?.startsWith('Content') || undefined}
          aria-describedby={problem ? ids.problem : undefined}
          className={`${inputStyles} resize-y`}
          placeholder="What do the riders need to know?"
        />
      </div>
      <label htmlFor={ids.active} className="flex cursor-pointer items-start gap-3 text-bone">
        <input
          id={ids.active}
          type="checkbox"
          checked={active}
          onChange={(e) => setActive(e.target.checked)}
          className="mt-0.5 size-5 shrink-0 accent-fire-500"
        />
        Make this announcement active (visible to participants)
      </label>
      {problem && (
        <p
          id={ids.problem}
          role="alert"
          className="rounded-md border border-ember-600 bg-ember-700/15 px-3 py-2 text-sm text-ember-400"
        >
          {problem}
        </p>
      )}
    </FormModal>
  );
}
