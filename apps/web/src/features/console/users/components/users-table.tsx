import type { AdminUser } from '@rally/shared/contracts/users';
import { Eye, Flag, Flame, Pencil, Trash2, Undo2 } from 'lucide-react';
import type { ReactNode } from 'react';
import { ProfileAvatar } from '../../../public-profile/components/profile-avatar';
import type { useUserActions } from '../../api/use-user-actions';
import { ConsoleTable, tdClass as td } from '../../components/console-table';
import { callNameOf, fullNameOf, lastActive, staffCategory } from '../../components/display';
import { RankBadge } from '../../components/staff-badges';

type Actions = ReturnType<typeof useUserActions>;

/** An icon action; on a phone's card it also shows its word and is a full thumb wide. */
function ActionButton({
  label,
  text,
  onClick,
  allowed = true,
  danger = false,
  children,
}: {
  label: string;
  text: string;
  onClick: () => void;
  allowed?: boolean;
  danger?: boolean;
  children: ReactNode;
}) {
  return (
    <button
      type="button"
      aria-label={label}
      title={label}
      // Refused actions stay visible but dimmed; a click explains why in an alert.
      aria-disabled={!allowed}
      onClick={onClick}
      className={`flex items-center justify-center gap-1.5 rounded-md border border-ink-600 text-sm font-bold transition-colors max-sm:min-h-11 max-sm:px-3 sm:size-9 ${
        allowed
          ? danger
            ? 'text-ember-400 hover:border-ember-500 hover:bg-ember-700/20'
            : 'text-ash hover:border-fire-500 hover:text-fire-300'
          : 'cursor-not-allowed text-smoke opacity-50'
      }`}
    >
      {children}
      <span className="sm:hidden" aria-hidden="true">
        {text}
      </span>
    </button>
  );
}

export function StatusToggle({ user, actions }: { user: AdminUser; actions: Actions }) {
  const active = user.status === 'active';
  return (
    <button
      type="button"
      onClick={() => actions.toggleStatus(user)}
      disabled={actions.busy}
      aria-label={`Status: ${active ? 'Active' : 'Inactive'}. ${active ? 'Deactivate' : 'Activate'} ${callNameOf(user)}`}
      className={`inline-flex min-h-11 items-center gap-1.5 rounded-full sm:min-h-9 border px-3 text-xs font-bold uppercase tracking-wide transition-colors ${
        active
          ? 'border-jade-400 bg-jade-600/20 text-jade-400 hover:bg-jade-600/35'
          : 'border-ember-500 bg-ember-700/30 text-ember-400 hover:bg-ember-700/50'
      }`}
    >
      <span className={`size-2 rounded-full ${active ? 'bg-jade-400' : 'bg-ember-400'}`} aria-hidden="true" />
      {active ? 'Active' : 'Inactive'}
    </button>
  );
}

export function UsersTable({
  users,
  actions,
  onView,
  onEdit,
}: {
  users: AdminUser[];
  actions: Actions;
  onView: (u: AdminUser) => void;
  onEdit: (u: AdminUser) => void;
}) {
  return (
    <ConsoleTable
      headers={['Warrior', 'Rider #', 'Team/Club', 'Category', 'Stats', 'Status', 'Last Active', 'Actions']}
      minWidth="sm:min-w-[900px]"
      className="relative"
      stackOnPhone
    >
      {users.map((u) => {
        const name = callNameOf(u);
        const category = staffCategory(u);
        return (
          <tr key={u.id} className="bg-ink-900 hover:bg-ink-850" data-user-id={u.id}>
            <td className={td}>
              <div className="flex min-w-0 items-center gap-3">
                <ProfileAvatar userId={u.id} name={name} hasImage={u.has_profile_image} className="size-10" />
                <div className="min-w-0">
                  <p className="font-bold text-bone">{u.kit_name || 'No Kit Name'}</p>
                  <p className="text-ash">{fullNameOf(u)}</p>
                  <p className="truncate text-xs text-smoke sm:max-w-[12rem]" title={u.email}>
                    {u.email}
                  </p>
                  <div className="mt-1">
                    <RankBadge role={u.role_name} />
                  </div>
                </div>
              </div>
            </td>
            <td data-label="Rider #" className={`${td} font-display text-lg`}>
              {u.rider_number === null ? <span className="text-smoke">—</span> : `#${u.rider_number}`}
            </td>
            <td data-label="Team/Club" className={`${td} text-ash sm:max-w-[8rem]`}>
              <span className="min-w-0 wrap-anywhere">{u.club_name || 'No Team'}</span>
            </td>
            <td data-label="Category" className={td}>
              <div>
                <span className={`font-bold ${u.category ? 'text-gold-300' : 'text-smoke'}`}>{category.name}</span>
                <span className="block text-xs text-smoke">{category.distance}</span>
              </div>
            </td>
            <td data-label="Stats" className={td}>
              <div className="flex gap-3 sm:block">
                <span className="flex items-center gap-1 text-bone">
                  <Flame className="size-4 text-ember-400" aria-hidden="true" />
                  {u.fires} <span className="sr-only">fires</span>
                </span>
                <span className="flex items-center gap-1 text-ash">
                  <Flag className="size-4 text-fire-400" aria-hidden="true" />
                  {u.checkpoints} <span className="sr-only">checkpoints</span>
                </span>
              </div>
            </td>
            <td data-label="Status" className={td}>
              <StatusToggle user={u} actions={actions} />
            </td>
            <td data-label="Last Active" className={`${td} whitespace-nowrap text-ash`}>
              {lastActive(u.last_login)}
            </td>
            <td className={td}>
              <div className="grid w-full grid-cols-2 gap-2 sm:w-max sm:gap-1">
                <ActionButton label={`View details of ${name}`} text="View" onClick={() => onView(u)}>
                  <Eye className="size-4" aria-hidden="true" />
                </ActionButton>
                <ActionButton
                  label={`Edit ${name}`}
                  text="Edit"
                  allowed={actions.allowed.edit}
                  onClick={() => (actions.allowed.edit ? onEdit(u) : actions.denyEdit())}
                >
                  <Pencil className="size-4" aria-hidden="true" />
                </ActionButton>
                <ActionButton
                  label={`Delete ${name}`}
                  text="Delete"
                  allowed={actions.allowed.delete}
                  danger
                  onClick={() => actions.remove(u)}
                >
                  <Trash2 className="size-4" aria-hidden="true" />
                </ActionButton>
                <ActionButton
                  label={`Undo verification of ${name}`}
                  text="Undo"
                  allowed={actions.allowed.undo}
                  onClick={() => actions.undo(u)}
                >
                  <Undo2 className="size-4" aria-hidden="true" />
                </ActionButton>
              </div>
            </td>
          </tr>
        );
      })}
    </ConsoleTable>
  );
}
