import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from '../../../../lib/toast';
import { idCardKeys, markPrinted } from '../api/id-cards-api';

export function useMarkPrinted() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (userId: string) => markPrinted(userId),
    onSuccess: () => toast.success('ID marked as printed successfully'),
    onError: () => toast.error('Failed to mark as printed'),
    onSettled: () => queryClient.invalidateQueries({ queryKey: idCardKeys.all }),
  });
}
