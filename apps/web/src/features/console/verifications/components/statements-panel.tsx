// Payment statements in the Verification Center: upload the organiser's transaction history,
// then see which rows matched receipts and which matched none; earlier uploads stay listed.
import type { StatementDetail } from '@rally/shared/contracts/receipts';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { FileSpreadsheet } from 'lucide-react';
import { useState } from 'react';
import { formatDate } from '../../../../lib/format';
import { toast } from '../../../../lib/toast';
import { consoleKeys } from '../../api/console-keys';
import { EmptyPanel, QueryStates } from '../../components/list-states';
import { usePastEdition } from '../../components/past-edition-context';
import { statementKeys, statementQuery, statementsQuery } from '../api/receipts-api';
import { StatementDetailView } from './statement-detail';
import { StatementUploadForm } from './statement-upload-form';

const PRESET_NAMES = { gcash: 'GCash', bank: 'Bank', custom: 'Custom' } as const;

export function StatementsPanel() {
  const queryClient = useQueryClient();
  const past = usePastEdition() !== null;
  const [openId, setOpenId] = useState<string | null>(null);
  // A new form after each upload: the next statement starts from an empty file field.
  const [uploads, setUploads] = useState(0);
  const list = useQuery(statementsQuery());
  // The newest statement opens by default; a chosen one stays open.
  const shownId = openId ?? list.data?.[0]?.id ?? null;
  const detail = useQuery({ ...statementQuery(shownId ?? ''), enabled: shownId !== null });

  const uploaded = (statement: StatementDetail) => {
    queryClient.setQueryData(statementKeys.one(statement.id), statement);
    setOpenId(statement.id);
    setUploads((n) => n + 1);
    toast.success(`Statement read: ${statement.matchedCount} of ${statement.rowCount} rows matched`);
    void queryClient.invalidateQueries({ queryKey: statementKeys.all, exact: true });
    // Matched receipts now say "In statement" on the queue.
    void queryClient.invalidateQueries({ queryKey: consoleKeys.verifications });
  };

  return (
    <section className="mt-8" aria-labelledby="payment-statements-title" data-testid="payment-statements">
      <h3 id="payment-statements-title" className="mb-3 flex items-center gap-2 text-xl">
        <FileSpreadsheet className="size-5 text-fire-400" aria-hidden="true" />
        Payment Statements
      </h3>
      <div className="flex flex-col gap-4">
        {!past && <StatementUploadForm key={uploads} onUploaded={uploaded} />}
        <QueryStates query={list} loadingLabel="Loading statements..." errorMessage="Failed to load statements">
          {(statements) =>
            statements.length === 0 ? (
              <EmptyPanel message="No statements uploaded yet." />
            ) : (
              <div className="grid gap-4 lg:grid-cols-[16rem_minmax(0,1fr)]">
                <ul className="flex flex-col gap-2" aria-label="Uploaded statements">
                  {statements.map((s) => {
                    const on = s.id === shownId;
                    return (
                      <li key={s.id}>
                        <button
                          type="button"
                          aria-pressed={on}
                          onClick={() => setOpenId(s.id)}
                          className={`w-full rounded-md border-2 p-2.5 text-left ${
                            on ? 'border-fire-500 bg-ink-850' : 'border-ink-700 bg-ink-900 hover:border-fire-500'
                          }`}
                        >
                          <span className="block font-bold wrap-anywhere text-bone">
                            {s.originalName ?? 'Statement'}
                          </span>
                          <span className="block text-sm text-ash">
                            {PRESET_NAMES[s.preset]} · {formatDate(s.createdAt)} · {s.matchedCount}/{s.rowCount} matched
                          </span>
                        </button>
                      </li>
                    );
                  })}
                </ul>
                <div className="min-w-0">
                  {detail.data ? (
                    <StatementDetailView statement={detail.data} />
                  ) : (
                    <QueryStates
                      query={detail}
                      loadingLabel="Loading statement..."
                      errorMessage="Failed to load the statement"
                    >
                      {(d) => <StatementDetailView statement={d} />}
                    </QueryStates>
                  )}
                </div>
              </div>
            )
          }
        </QueryStates>
      </div>
    </section>
  );
}
