// Erasure requests (DESIGN.md §12), for staff with delete_user: pending ones first, each
// approved (the account is erased at once) or refused with a reason; decided ones below.
import type { AdminErasureRequest } from '@rally/shared/contracts/erasure';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { UserX } from 'lucide-react';
import { useState } from 'react';
import { ApiError } from '../../../../lib/api-client';
import { toast } from '../../../../lib/toast';
import { PagedResults, QueryStates } from '../../components/list-states';
import { decideErasure, type ErasureDecision, erasureKeys, erasureRequestsQuery } from './erasure-api';
import { ErasureDecisionDialog } from './erasure-decision-dialog';
import { DecidedErasureItem, PendingErasureItem } from './erasure-request-item';

export function ErasureRequestsPanel() {
  const queryClient = useQueryClient();
  const [pendingPage, setPendingPage] = useState(1);
  const [decidedPage, setDecidedPage] = useState(1);
  const pending = useQuery(erasureRequestsQuery('pending', pendingPage));
  const decided = useQuery(erasureRequestsQuery('decided', decidedPage));
  const [deciding, setDeciding] = useState<{ request: AdminErasureRequest; decision: ErasureDecision } | null>(null);

  const decide = useMutation({
    mutationFn: ({ id, decision, reason }: { id: string; decision: ErasureDecision; reason: string }) =>
      decideErasure(id, decision, reason),
    onSuccess: (request) => {
      setDeciding(null);
      toast.success(request.status === 'approved' ? 'The account was erased' : 'The request was refused');
    },
    onError: (error) => {
      toast.error(error instanceof ApiError && error.message ? error.message : 'The decision was not saved');
      // Decided meanwhile by someone else (409), or gone: show what is true now.
      if (error instanceof ApiError && (error.status === 409 || error.status === 404)) setDeciding(null);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: erasureKeys.all }),
  });

  return (
    <section
      aria-labelledby="erasure-requests-title"
      data-testid="erasure-requests-panel"
      className="flex flex-col gap-4"
    >
      <div>
        <h3 id="erasure-requests-title" className="flex items-center gap-2 text-xl">
          <UserX className="size-5 text-fire-400" aria-hidden="true" />
          Erasure Requests
        </h3>
        <p className="text-sm text-ash">
          Riders who asked to have their account erased. Decide within 30 working days, with a reason: approving deletes
          the account as Delete does in Users; the rider reads a refusal in My Profile.
        </p>
      </div>

      <div>
        <h4 className="mb-2 font-display text-lg tracking-wide text-gold-300 uppercase">Pending</h4>
        <QueryStates query={pending} loadingLabel="Loading requests..." errorMessage="Failed to load erasure requests">
          {(data) => (
            <PagedResults
              shown={data.requests.length}
              total={data.pagination.total}
              noun="pending requests"
              emptyMessage="No pending requests."
              pagination={{
                page: pendingPage,
                totalPages: data.pagination.total_pages,
                onPage: setPendingPage,
                label: 'Pending erasure requests pages',
              }}
            >
              <ul className="flex flex-col gap-3">
                {data.requests.map((request) => (
                  <PendingErasureItem
                    key={request.id}
                    request={request}
                    onDecide={(decision) => setDeciding({ request, decision })}
                  />
                ))}
              </ul>
            </PagedResults>
          )}
        </QueryStates>
      </div>

      <div>
        <h4 className="mb-2 font-display text-lg tracking-wide text-ash uppercase">Decided</h4>
        <QueryStates
          query={decided}
          loadingLabel="Loading decided requests..."
          errorMessage="Failed to load decided requests"
        >
          {(data) => (
            <PagedResults
              shown={data.requests.length}
              total={data.pagination.total}
              noun="decided requests"
              emptyMessage="No request decided yet."
              pagination={{
                page: decidedPage,
                totalPages: data.pagination.total_pages,
                onPage: setDecidedPage,
                label: 'Decided erasure requests pages',
              }}
            >
              <ul className="flex flex-col gap-2">
                {data.requests.map((request) => (
                  <DecidedErasureItem key={request.id} request={request} />
                ))}
              </ul>
            </PagedResults>
          )}
        </QueryStates>
      </div>

      {deciding && (
        <ErasureDecisionDialog
          key={`${deciding.request.id}:${deciding.decision}`}
          request={deciding.request}
          decision={deciding.decision}
          busy={decide.isPending}
          onClose={() => setDeciding(null)}
          onConfirm={(reason) => decide.mutate({ id: deciding.request.id, decision: deciding.decision, reason })}
        />
      )}
    </section>
  );
}
