// One statement as the desk reads it: the rows that matched a receipt (by reference and
// amount) with whose it is, and the rows that matched none: someone paid and did not
// register, or typed the wrong reference.
import type { StatementDetail, StatementRow } from '@rally/shared/contracts/receipts';
import { CircleAlert, FileCheck2 } from 'lucide-react';
import { formatRiderNumber } from '../../../../lib/format';
import { formatPesoCentavos, showPaidAt, showReference } from './receipt-display';

export function StatementDetailView({ statement }: { statement: StatementDetail }) {
  return (
    <div className="flex flex-col gap-4" data-testid="statement-detail">
      <p className="text-sm text-ash">
        {statement.originalName ?? 'Statement'}: {statement.rowCount} rows, {statement.matchedCount} matched
        {statement.coversFrom && statement.coversTo
          ? ` · ${showPaidAt(statement.coversFrom)} to ${showPaidAt(statement.coversTo)}`
          : ''}
      </p>
      <RowGroup
        title={`Paid but no receipt matches (${statement.unmatched.length})`}
        hint="Someone paid and did not register, or typed the wrong reference number."
        rows={statement.unmatched}
        tone="warn"
        testId="statement-unmatched"
      />
      <RowGroup
        title={`Matched to a receipt (${statement.matched.length})`}
        rows={statement.matched}
        tone="ok"
        testId="statement-matched"
      />
    </div>
  );
}

function RowGroup({
  title,
  hint,
  rows,
  tone,
  testId,
}: {
  title: string;
  hint?: string;
  rows: StatementRow[];
  tone: 'warn' | 'ok';
  testId: string;
}) {
  const Icon = tone === 'warn' ? CircleAlert : FileCheck2;
  return (
    <section data-testid={testId}>
      <h4
        className={`flex items-center gap-2 text-base font-bold tracking-wide uppercase ${
          tone === 'warn' ? 'text-gold-300' : 'text-jade-400'
        }`}
      >
        <Icon className="size-5 shrink-0" aria-hidden="true" />
        {title}
      </h4>
      {hint && <p className="text-sm text-ash">{hint}</p>}
      {rows.length === 0 ? (
        <p className="mt-2 text-sm text-smoke">None.</p>
      ) : (
        <ul className="mt-2 flex flex-col gap-2">
          {rows.map((row) => (
            <li
              key={row.id}
              className={`grid grid-cols-[minmax(0,1fr)_auto] gap-x-3 gap-y-0.5 rounded-md border bg-ink-950 p-2.5 ${
                tone === 'warn' ? 'border-gold-400/70' : 'border-ink-700'
              }`}
            >
              <span className="font-mono font-bold wrap-anywhere text-gold-300">
                {showReference(row.referenceNumber) ?? 'No reference'}
              </span>
              <span className="text-right font-bold text-bone">
                {row.amount === null ? '—' : formatPesoCentavos(row.amount)}
              </span>
              <span className="text-sm wrap-anywhere text-ash">
                Line {row.line}
                {row.paidAt ? ` · ${showPaidAt(row.paidAt)}` : ''}
                {row.description ? ` · ${row.description}` : ''}
              </span>
              {row.match ? (
                <span className="text-right text-sm font-bold wrap-anywhere text-jade-400">
                  {row.match.riderNumber === null ? '' : `#${formatRiderNumber(row.match.riderNumber)} `}
                  {row.match.name}
                </span>
              ) : (
                <span />
              )}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
