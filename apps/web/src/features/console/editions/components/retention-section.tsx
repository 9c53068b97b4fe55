// Data retention of one edition (DESIGN.md §12): how many days after the rally each kind of
// riders' personal data is kept, and when it goes or went. Empty keeps the default, shown
// as the placeholder. A kind already removed stays removed whatever is typed later.
import { formatRallyDay } from '@rally/shared/catalog/editions';
import { RETENTION_KINDS, type RetentionKind } from '@rally/shared/catalog/privacy';
import {
  RETENTION_DAYS_MAX,
  type Retention,
  type RetentionKindState,
  updateRetentionRequest,
} from '@rally/shared/contracts/retention';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ChevronDown, Save, ShieldCheck } from 'lucide-react';
import { useId, useState } from 'react';
import { buttonStyles } from '../../../../components/ui/button-styles';
import { inputStyles } from '../../../../components/ui/field-styles';
import { ApiError } from '../../../../lib/api-client';
import { toast } from '../../../../lib/toast';
import { fetchRetention, retentionKey, saveRetention } from '../api/retention-api';

const afterTheRally = (days: number) =>
  days === 0 ? 'the day after the rally' : `${days} day${days === 1 ? '' : 's'} after the rally`;

/** "Goes on January 12, 2027 (30 days after the rally)", or what went and when. */
export function scheduleText(k: RetentionKindState): string {
  if (k.wentAt) {
    const n = k.rows ?? 0;
    return `Went on ${formatRallyDay(k.wentAt)} (${n} record${n === 1 ? '' : 's'})`;
  }
  if (!k.goesOn) return 'Kept: the edition has no end date';
  return `Goes on ${formatRallyDay(k.goesOn)} (${afterTheRally(k.days)})`;
}

export function RetentionSection({ editionId, readOnly }: { editionId: string; readOnly: boolean }) {
  const [open, setOpen] = useState(false);
  return (
    <section className="mt-4 border-t border-ink-700 pt-3" aria-label="Data retention">
      <button
        type="button"
        className="flex w-full items-center justify-between gap-2 py-1 text-left font-bold text-bone"
        aria-expanded={open}
        onClick={() => setOpen(!open)}
      >
        <span className="flex shrink-0 items-center gap-2">
          <ShieldCheck className="size-5 text-fire-300" aria-hidden="true" />
          Data retention
        </span>
        <ChevronDown
          className={`size-5 text-ash transition-transform ${open ? 'rotate-180' : ''}`}
          aria-hidden="true"
        />
      </button>
      {open && <RetentionBody editionId={editionId} readOnly={readOnly} />}
    </section>
  );
}

function RetentionBody({ editionId, readOnly }: { editionId: string; readOnly: boolean }) {
  const query = useQuery({ queryKey: retentionKey(editionId), queryFn: () => fetchRetention(editionId) });
  if (query.isPending) return <p className="mt-2 text-sm text-ash">Loading data retention...</p>;
  if (query.isError) return <p className="mt-2 text-sm font-bold text-ember-400">Failed to load the data retention</p>;
  return <RetentionForm key={query.dataUpdatedAt} retention={query.data} readOnly={readOnly} />;
}

function RetentionForm({ retention, readOnly }: { retention: Retention; readOnly: boolean }) {
  const queryClient = useQueryClient();
  const typedOf = (r: Retention) =>
    Object.fromEntries(r.kinds.map((k) => [k.kind, k.isDefault ? '' : String(k.days)])) as Record<
      RetentionKind,
      string
    >;
  const [typed, setTyped] = useState(() => typedOf(retention));
  const [problem, setProblem] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: (body: Parameters<typeof saveRetention>[1]) => saveRetention(retention.editionId, body),
    onSuccess: (saved) => {
      queryClient.setQueryData(retentionKey(saved.editionId), saved);
      toast.success('Data retention saved');
    },
    onError: (error) => setProblem(error instanceof ApiError ? error.message : 'Failed to save the data retention'),
  });
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    const wrong = retention.kinds.find((k) => {
      const v = typed[k.kind].trim();
      return v !== '' && !(/^\d+$/.test(v) && Number(v) <= RETENTION_DAYS_MAX);
    });
    if (wrong) {
      setProblem(`${wrong.label}: a whole number of days from 0 to ${RETENTION_DAYS_MAX}, or empty for the default`);
      return;
    }
    const body = Object.fromEntries(
      RETENTION_KINDS.map((k) => [k, typed[k].trim() === '' ? null : Number(typed[k].trim())]),
    );
    const parsed = updateRetentionRequest.safeParse(body);
    if (!parsed.success) {
      setProblem(parsed.error.issues[0]?.message ?? 'Check the days');
      return;
    }
    setProblem(null);
    save.mutate(parsed.data);
  };
  return (
    <form className="mt-3 flex flex-col gap-3" onSubmit={submit} noValidate>
      <p className="text-sm text-ash">
        Days after the rally's last day that each kind of riders' personal data is kept. Then a daily job removes it;
        counts, payments, results and finisher lists stay. Empty: the default.
      </p>
      {retention.heldOpen && (
        <p className="rounded-lg border border-gold-500/40 bg-gold-500/10 p-3 text-sm font-bold text-bone">
          Registration for this edition is open: nothing goes while riders can still join. The days run once
          registration closes.
        </p>
      )}
      <ul className="flex flex-col gap-2">
        {retention.kinds.map((k) => (
          <RetentionRow
            key={k.kind}
            state={k}
            value={typed[k.kind]}
            disabled={readOnly || save.isPending}
            onChange={(value) => {
              setTyped({ ...typed, [k.kind]: value });
              if (problem) setProblem(null);
            }}
          />
        ))}
      </ul>
      {problem && (
        <p role="alert" className="font-bold text-ember-400">
          {problem}
        </p>
      )}
      {!readOnly && (
        <div>
          <button type="submit" className={buttonStyles('primary', 'md')} disabled={save.isPending}>
            <Save className="size-4" aria-hidden="true" />
            {save.isPending ? 'Saving...' : 'Save Retention'}
          </button>
        </div>
      )}
    </form>
  );
}

function RetentionRow({
  state: k,
  value,
  disabled,
  onChange,
}: {
  state: RetentionKindState;
  value: string;
  disabled: boolean;
  onChange: (value: string) => void;
}) {
  const id = useId();
  return (
    <li
      className="flex flex-wrap items-center gap-x-4 gap-y-2 rounded-lg border border-ink-700 bg-ink-950/40 p-3"
      data-testid="retention-kind"
    >
      <label htmlFor={id} className="w-full text-sm font-bold uppercase tracking-wide text-ash sm:w-48">
        {k.label}
      </label>
      <span className="flex shrink-0 items-center gap-2">
        <input
          id={id}
          type="number"
          inputMode="numeric"
          min={0}
          max={RETENTION_DAYS_MAX}
          className={`${inputStyles.replace('w-full', 'w-28')} shrink-0`}
          value={value}
          placeholder={String(k.defaultDays)}
          aria-describedby={`${id}-schedule`}
          disabled={disabled}
          onChange={(e) => onChange(e.target.value)}
        />
        <span className="whitespace-nowrap text-sm text-ash">days</span>
      </span>
      <p
        id={`${id}-schedule`}
        className={`min-w-0 flex-1 basis-56 text-sm font-bold ${k.wentAt ? 'text-smoke' : 'text-bone'}`}
        data-testid="retention-schedule"
      >
        {scheduleText(k)}
      </p>
    </li>
  );
}
