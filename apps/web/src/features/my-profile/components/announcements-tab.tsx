import type { Announcement } from '@rally/shared/contracts/rider-kit';
import type { UseQueryResult } from '@tanstack/react-query';
import { ChevronDown, Megaphone, TriangleAlert } from 'lucide-react';
import { useState } from 'react';
import { Spinner } from '../../../components/ui/spinner';
import { formatDate, formatRelativeTime } from '../../../lib/format';
import { roleLabel } from '../../public-profile/components/rider-badges';
import { TabMessage } from './tab-state';

interface AnnouncementsTabProps {
  query: UseQueryResult<Announcement[]>;
  read: Set<string>;
  onRead: (id: string) => void;
}

export function AnnouncementsTab({ query, read, onRead }: AnnouncementsTabProps) {
  const [open, setOpen] = useState<string | null>(null);

  if (query.isPending) return <Spinner label="Loading announcements..." className="py-12" />;
  if (query.isError) {
    return (
      <TabMessage
        tone="error"
        icon={<TriangleAlert className="size-12 text-ember-400" aria-hidden="true" />}
        title="Failed to load announcements"
        onRetry={() => query.refetch()}
      />
    );
  }
  if (query.data.length === 0) {
    return (
      <TabMessage
        icon={<Megaphone className="size-12 text-smoke" aria-hidden="true" />}
        title="No announcements available."
      />
    );
  }
  return (
    <div>
      <h2 className="text-2xl text-fire-300">Announcements</h2>
      <p className="mt-1 text-sm text-ash">Word from the organizers. Tap an announcement to read it.</p>
      <ul className="mt-4 space-y-3">
        {query.data.map((a) => {
          const unread = !read.has(a.id);
          const expanded = open === a.id;
          const author = [a.first_name, a.last_name].filter(Boolean).join(' ') || 'Rally Organizers';
          const panelId = `announcement-${a.id}`;
          return (
            <li
              key={a.id}
              className={`overflow-hidden rounded-lg border bg-ink-850 ${unread ? 'border-fire-500' : 'border-ink-700'}`}
            >
              <button
                type="button"
                aria-expanded={expanded}
                aria-controls={panelId}
                onClick={() => {
                  onRead(a.id);
                  setOpen(expanded ? null : a.id);
                }}
                className="flex w-full items-start gap-3 px-4 py-3 text-left hover:bg-ink-800"
              >
                <span
                  className={`mt-2 size-2.5 shrink-0 rounded-full ${unread ? 'bg-fire-500' : 'bg-transparent'}`}
                  aria-hidden="true"
                />
                <span className="min-w-0 flex-1">
                  <span className="flex flex-wrap items-center gap-2">
                    <span className={`font-bold wrap-anywhere ${unread ? 'text-bone' : 'text-ash'}`}>{a.title}</span>
                    {unread && (
                      <span className="rounded bg-fire-500 px-1.5 py-0.5 text-[0.65rem] font-bold text-ink-950 uppercase">
                        New
                      </span>
                    )}
                  </span>
                  <span className="mt-0.5 block text-xs text-smoke">
                    {author}
                    {a.author_role ? ` · ${roleLabel(a.author_role)}` : ''} ·{' '}
                    <time dateTime={a.created_at} title={formatDate(a.created_at)}>
                      {formatRelativeTime(a.created_at)}
                    </time>
                  </span>
                </span>
                <ChevronDown
                  className={`mt-1 size-5 shrink-0 text-ash transition-transform ${expanded ? 'rotate-180' : ''}`}
                  aria-hidden="true"
                />
              </button>
              <div id={panelId} hidden={!expanded} className="border-t border-ink-700 px-4 py-3 pl-9.5">
                <p className="whitespace-pre-line wrap-anywhere text-ash">{a.content}</p>
              </div>
            </li>
          );
        })}
      </ul>
    </div>
  );
}
