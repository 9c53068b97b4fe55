// The row actions of User Management and the details modal, each checked against the
// viewer's permissions first with an alert ("You do not have permission to ...").
import type { AdminUser } from '@rally/shared/contracts/users';
import { can } from '@rally/shared/permissions';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useAuth } from '../../../lib/auth';
import { toast } from '../../../lib/toast';
import { consoleKeys } from './console-keys';
import { deleteUser, setUserStatus } from './users-api';
import { undoVerification } from './verifications-api';

export const PERMISSION_ALERTS = {
  delete: 'You do not have permission to delete users.',
  status: 'You do not have permission to change user status.',
  edit: 'You do not have permission to edit user information.',
  undo: 'You do not have permission to undo verifications.',
} as const;

export const DELETE_CONFIRM = 'Are you sure you want to delete this user? This action cannot be undone.';

export function useUserActions() {
  const { user: viewer } = useAuth();
  const queryClient = useQueryClient();
  const role = viewer?.role;
  const allowed = {
    edit: can(role, 'edit_user_info'),
    editRole: can(role, 'edit_user_role'),
    delete: can(role, 'delete_user'),
    status: can(role, 'edit_user_info'),
    undo: can(role, 'undo_verification'),
  };

  const refreshLists = () => {
    void queryClient.invalidateQueries({ queryKey: consoleKeys.users });
    void queryClient.invalidateQueries({ queryKey: consoleKeys.masterlist });
    void queryClient.invalidateQueries({ queryKey: consoleKeys.dashboardStats });
  };

  const statusMutation = useMutation({
    mutationFn: (u: AdminUser) => setUserStatus(u.id, u.status === 'active' ? 'inactive' : 'active'),
    onSuccess: (updated) => {
      toast.success(updated.status === 'active' ? 'User activated' : 'User deactivated');
      queryClient.setQueryData(consoleKeys.user(updated.id), updated);
      refreshLists();
    },
    onError: (error) =>
      toast.error(error.message ? `Failed to update user status: ${error.message}` : 'Failed to update user status'),
  });

  const deleteMutation = useMutation({
    mutationFn: (u: AdminUser) => deleteUser(u.id),
    onSuccess: () => {
      toast.success('User deleted successfully');
      refreshLists();
    },
    onError: () => toast.error('Failed to delete user'),
  });

  const undoMutation = useMutation({
    mutationFn: (u: AdminUser) => undoVerification(u.id),
    onSuccess: () => {
      toast.success('Verification undone. The status is pending again.');
      refreshLists();
      void queryClient.invalidateQueries({ queryKey: consoleKeys.verifications });
    },
    onError: (error) => toast.error(`Failed to undo verification: ${error.message}`),
  });

  return {
    allowed,
    viewerId: viewer?.id,
    busy: statusMutation.isPending || deleteMutation.isPending || undoMutation.isPending,
    denyEdit() {
      toast.error(PERMISSION_ALERTS.edit);
    },
    toggleStatus(u: AdminUser) {
      if (!allowed.status) return void toast.error(PERMISSION_ALERTS.status);
      statusMutation.mutate(u);
    },
    remove(u: AdminUser, onDone?: () => void) {
      if (!allowed.delete) return void toast.error(PERMISSION_ALERTS.delete);
      if (!window.confirm(DELETE_CONFIRM)) return;
      deleteMutation.mutate(u, { onSuccess: () => onDone?.() });
    },
    undo(u: AdminUser) {
      if (!allowed.undo) return void toast.error(PERMISSION_ALERTS.undo);
      const name = u.kit_name || `${u.first_name} ${u.last_name}`;
      if (
        !window.confirm(
          `Undo the verification of ${name}? Their status will return to pending and they will need to be verified again.`,
        )
      )
        return;
      undoMutation.mutate(u);
    },
  };
}
