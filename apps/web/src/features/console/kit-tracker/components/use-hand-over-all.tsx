// "Hand over all" at the kit table: one tap records the three items. It asks nothing
// first (a queue of riders waits at the table); the toast offers an undo instead,
// which takes back only what the tap gave.
import type { KitGivenField, KitListResponse, KitParticipant } from '@rally/shared/contracts/kit-tracking';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { toast } from '../../../../lib/toast';
import { handOverAll, kitKeys, undoHandOver } from '../api/kit-tracker-api';
import { KIT_CHECKS } from './kit-status';

/** Long enough to read the toast and reach its Undo on a phone. */
const UNDO_MS = 10_000;

interface LastHandOver {
  userId: string;
  fields: KitGivenField[];
  name: string;
  toastId?: string;
}

export function useHandOverAll() {
  const queryClient = useQueryClient();
  // The details modal is a native dialog, which makes the toast under it inert: while the
  // undo lasts, the modal offers its own.
  const [last, setLast] = useState<LastHandOver | null>(null);
  useEffect(() => {
    if (!last) return;
    const timer = setTimeout(() => setLast(null), UNDO_MS);
    return () => clearTimeout(timer);
  }, [last]);

  // The row (and an open details modal, which reads the list) changes at once; the
  // refetch that follows brings the stats.
  const showRow = (row: KitParticipant | undefined) => {
    if (!row) return;
    queryClient.setQueriesData<KitListResponse['data']>({ queryKey: [...kitKeys.all, 'list'] }, (page) =>
      page ? { ...page, participants: page.participants.map((p) => (p.user_id === row.user_id ? row : p)) } : page,
    );
  };
  const refresh = () => queryClient.invalidateQueries({ queryKey: kitKeys.all });

  const undo = useMutation({
    mutationFn: ({ userId, fields }: LastHandOver) => undoHandOver(userId, fields),
    onSuccess: (row, { name }) => {
      showRow(row);
      toast.success(`Hand-over undone for ${name}`);
    },
    onError: () => toast.error('Failed to undo the hand-over'),
    onSettled: refresh,
  });

  const handOver = useMutation({
    mutationFn: (participant: KitParticipant) => handOverAll(participant.user_id),
    onSuccess: (row, before) => {
      showRow(row);
      const fields = KIT_CHECKS.filter((c) => !before[c.field]).map((c) => c.field);
      const name = before.participant_name;
      const given = { userId: before.user_id, fields, name };
      const toastId = toast.success(
        (t) => (
          <span className="flex flex-wrap items-center gap-x-3 gap-y-1">
            <span>{`Kit handed over to ${name}`}</span>
            <button
              type="button"
              onClick={() => {
                toast.dismiss(t.id);
                setLast(null);
                undo.mutate(given);
              }}
              className="min-h-11 rounded-md border-2 border-fire-500 px-3 font-display uppercase tracking-wider text-fire-300 hover:bg-fire-500/10"
            >
              Undo
            </button>
          </span>
        ),
        { duration: UNDO_MS },
      );
      setLast({ ...given, toastId });
    },
    onError: (error) =>
      toast.error(error.message ? `Failed to hand over the kit: ${error.message}` : 'Failed to hand over the kit'),
    onSettled: refresh,
  });

  const busyId = handOver.isPending ? handOver.variables.user_id : undo.isPending ? undo.variables.userId : null;
  return {
    handOver: (p: KitParticipant) => handOver.mutate(p),
    busyId,
    /** The undo still open for this rider, if any. */
    undoFor: (userId: string) =>
      last?.userId === userId
        ? () => {
            setLast(null);
            toast.dismiss(last.toastId);
            undo.mutate(last);
          }
        : null,
  };
}
