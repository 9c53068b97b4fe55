import type { StickerSheetBody } from '@rally/shared/contracts/exports';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { toast } from '../../../../lib/toast';
import { idCardKeys, printStickerSheet } from '../api/id-cards-api';

/** Prints a sheet; the list and stats refresh, as every sticker on it now counts as printed. */
export function usePrintSheet(onPrinted: () => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (selection: StickerSheetBody) => printStickerSheet(selection),
    onSuccess: ({ count, fileName }) => {
      toast.success(`Sticker sheet ready: ${count} sticker${count === 1 ? '' : 's'} (${fileName})`);
      onPrinted();
    },
    onError: (error) => toast.error(error.message || 'Failed to print the sticker sheet'),
    onSettled: () => queryClient.invalidateQueries({ queryKey: idCardKeys.all }),
  });
}
