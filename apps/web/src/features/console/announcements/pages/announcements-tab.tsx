// Announcements Management: every announcement, active or not,
// newest first; riders see the active ones in My Profile.
import type { AdminAnnouncement } from '@rally/shared/contracts/announcements';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Megaphone, Pencil, Plus, Trash2 } from 'lucide-react';
import { useState } from 'react';
import { buttonStyles } from '../../../../components/ui/button-styles';
import { toast } from '../../../../lib/toast';
import { EmptyPanel, ErrorPanel, LoadingPanel } from '../../components/list-states';
import { TabHeading } from '../../components/tab-heading';
import {
  type AnnouncementInput,
  announcementKeys,
  deleteAnnouncement,
  fetchAnnouncements,
  saveAnnouncement,
} from '../api/announcements-api';
import { AnnouncementModal } from '../components/announcement-modal';

const dateTime = (iso: string) => new Date(iso).toLocaleString('en-PH', { dateStyle: 'medium', timeStyle: 'short' });
const iconButton =
  'flex size-10 items-center justify-center rounded-md border border-ink-600 text-ash transition-colors disabled:opacity-50';

export default function AnnouncementsTab() {
  const queryClient = useQueryClient();
  const [editing, setEditing] = useState<AdminAnnouncement | null | undefined>(undefined);
  const list = useQuery({ queryKey: announcementKeys.all, queryFn: fetchAnnouncements });

  const save = useMutation({
    mutationFn: (input: AnnouncementInput) => saveAnnouncement(editing?.id ?? null, input),
    onSuccess: () => {
      toast.success(editing ? 'Announcement updated' : 'Announcement created');
      setEditing(undefined);
    },
    onError: () => toast.error('Failed to save announcement'),
    onSettled: () => queryClient.invalidateQueries({ queryKey: announcementKeys.all }),
  });

  const remove = useMutation({
    mutationFn: deleteAnnouncement,
    onSuccess: () => toast.success('Announcement deleted'),
    onError: () => toast.error('Failed to delete announcement'),
    onSettled: () => queryClient.invalidateQueries({ queryKey: announcementKeys.all }),
  });

  const onDelete = (a: AdminAnnouncement) => {
    if (!window.confirm(`Are you sure you want to delete the announcement "${a.title}"? This cannot be undone.`))
      return;
    remove.mutate(a.id);
  };

  return (
    <section>
      <TabHeading
        title="Announcements Management"
        icon={Megaphone}
        actions={
          <button type="button" onClick={() => setEditing(null)} className={buttonStyles('primary')}>
            <Plus className="size-5" aria-hidden="true" />
            Create Announcement
          </button>
        }
      />
      {list.isPending ? (
        <LoadingPanel label="Loading announcements..." />
      ) : list.isError ? (
        <ErrorPanel message="Failed to load announcements" detail={list.error.message} onRetry={() => list.refetch()} />
      ) : list.data.announcements.length === 0 ? (
        <EmptyPanel message="No announcements found." />
      ) : (
        <ul className="space-y-3">
          {list.data.announcements.map((a) => {
            const author = `${a.first_name ?? ''} ${a.last_name ?? ''}`.trim() || 'Unknown author';
            return (
              <li key={a.id} className="rounded-lg border border-ink-700 bg-ink-900 p-4" data-testid="announcement">
                <div className="flex flex-wrap items-start justify-between gap-3">
                  <div className="min-w-0 flex-1">
                    <div className="flex flex-wrap items-center gap-2">
                      <h3 className="wrap-anywhere text-xl text-bone">{a.title}</h3>
                      <span
                        className={`rounded-full border px-2 py-0.5 text-xs font-bold uppercase tracking-wide ${
                          a.is_active
                            ? 'border-jade-400 bg-jade-600/20 text-jade-400'
                            : 'border-ink-600 bg-ink-800 text-ash'
                        }`}
                      >
                        {a.is_active ? 'Active' : 'Inactive'}
                      </span>
                    </div>
                  </div>
                  <div className="flex gap-2">
                    <button
                      type="button"
                      onClick={() => setEditing(a)}
                      className={`${iconButton} hover:border-fire-500 hover:text-fire-300`}
                      aria-label={`Edit announcement: ${a.title}`}
                      title="Edit"
                    >
                      <Pencil className="size-4" aria-hidden="true" />
                    </button>
                    <button
                      type="button"
                      onClick={() => onDelete(a)}
                      disabled={remove.isPending && remove.variables === a.id}
                      className={`${iconButton} text-ember-400 hover:border-ember-500 hover:bg-ember-700/20`}
                      aria-label={`Delete announcement: ${a.title}`}
                      title="Delete"
                    >
                      <Trash2 className="size-4" aria-hidden="true" />
                    </button>
                  </div>
                </div>
                <p className="mt-2 whitespace-pre-wrap wrap-anywhere text-ash">{a.content}</p>
                <p className="mt-3 text-xs text-smoke">
                  By {author} · Created {dateTime(a.created_at)} · Updated {dateTime(a.updated_at)}
                </p>
              </li>
            );
          })}
        </ul>
      )}
      <AnnouncementModal
        editing={editing}
        saving={save.isPending}
        onSave={(input) => save.mutate(input)}
        onClose={() => setEditing(undefined)}
      />
    </section>
  );
}
