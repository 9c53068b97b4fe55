// Editions (DESIGN.md §9): every year's rally, newest first, the current one marked. An
// organiser makes the next edition from the current one's settings, dates it, sets its
// registration window, prices and until when returning riders' numbers are held, changes
// any, makes the next one current, and browses a past one read-only.
import { formatRallyDay, formatRallyMoment } from '@rally/shared/catalog/editions';
import type { Edition } from '@rally/shared/contracts/editions';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CalendarRange, History, Pencil, Plus, Rocket } from 'lucide-react';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { buttonStyles } from '../../../../components/ui/button-styles';
import { ApiError } from '../../../../lib/api-client';
import { editionsKey, editionsQuery } from '../../../../lib/editions';
import { eventSettingsKey } from '../../../../lib/event-settings';
import { formatPeso } from '../../../../lib/format';
import { toast } from '../../../../lib/toast';
import { QueryStates } from '../../components/list-states';
import { usePastEdition } from '../../components/past-edition-context';
import { TabHeading } from '../../components/tab-heading';
import { createEdition, makeCurrent, updateEdition } from '../api/editions-api';
import { EditionForm } from '../components/edition-form';
import { MakeCurrentDialog } from '../components/make-current-dialog';
import { RetentionSection } from '../components/retention-section';

const failed = (error: unknown, fallback: string) => (error instanceof ApiError ? error.message : fallback);

export default function EditionsTab() {
  const query = useQuery(editionsQuery());
  const [creating, setCreating] = useState(false);
  const queryClient = useQueryClient();
  const [rolling, setRolling] = useState<Edition | null>(null);
  // Browsing a past edition, the console changes nothing: back on the current one it does.
  const browsing = usePastEdition();
  const makeNext = useMutation({
    mutationFn: (id: string) => makeCurrent(id),
    onSuccess: async ({ message }) => {
      setRolling(null);
      toast.success(message);
      // Every screen of the console now shows the new edition.
      await queryClient.invalidateQueries();
    },
    onError: (error) => toast.error(failed(error, 'Failed to make the edition current')),
  });
  return (
    <section>
      <TabHeading
        title="Editions"
        icon={CalendarRange}
        actions={
          !creating &&
          !browsing && (
            <button type="button" className={buttonStyles('primary')} onClick={() => setCreating(true)}>
              <Plus className="size-5" aria-hidden="true" />
              Next Edition
            </button>
          )
        }
      />
      <p className="mb-5 max-w-3xl text-ash">
        The rally every year. The <strong className="text-bone">current</strong> edition is the one the site,
        registration and event day work on; its name, dates and hotline are also in Settings.
      </p>
      <QueryStates query={query} loadingLabel="Loading editions..." errorMessage="Failed to load the editions">
        {(editions) => (
          <div className="flex flex-col gap-4">
            {creating && <NewEdition editions={editions} onDone={() => setCreating(false)} />}
            <ul className="flex flex-col gap-4" aria-label="Editions">
              {editions.map((edition) => (
                <EditionCard
                  key={edition.id}
                  edition={edition}
                  editions={editions}
                  browsing={browsing}
                  onMakeCurrent={setRolling}
                />
              ))}
            </ul>
            <MakeCurrentDialog
              edition={rolling}
              current={editions.find((e) => e.current)}
              pending={makeNext.isPending}
              onConfirm={() => rolling && makeNext.mutate(rolling.id)}
              onClose={() => setRolling(null)}
            />
          </div>
        )}
      </QueryStates>
    </section>
  );
}

function NewEdition({ editions, onDone }: { editions: Edition[]; onDone: () => void }) {
  const queryClient = useQueryClient();
  const [problem, setProblem] = useState<string | null>(null);
  const current = editions.find((e) => e.current);
  const create = useMutation({
    mutationFn: createEdition,
    onSuccess: async (made) => {
      await queryClient.invalidateQueries({ queryKey: editionsKey });
      toast.success(`${made.name} created`);
      onDone();
    },
    onError: (error) => setProblem(failed(error, 'Failed to create the edition')),
  });
  return (
    <section
      aria-labelledby="new-edition-heading"
      className="rounded-xl border-2 border-fire-500 bg-ink-900 p-4 sm:p-6"
      data-testid="new-edition"
    >
      <h3 id="new-edition-heading" className="mb-4 text-2xl text-bone">
        The next edition
      </h3>
      <EditionForm
        edition={null}
        editions={editions}
        next={{ year: Math.max(...editions.map((e) => e.year)) + 1, copyFrom: current?.id ?? '' }}
        pending={create.isPending}
        problem={problem}
        onProblem={setProblem}
        onSubmit={(body) => create.mutate(body as Parameters<typeof createEdition>[0])}
        onCancel={onDone}
      />
    </section>
  );
}

function registrationText(e: Edition): string {
  const opens = e.registrationOpensAt ? formatRallyMoment(e.registrationOpensAt) : null;
  const closes = e.registrationClosesAt ? formatRallyMoment(e.registrationClosesAt) : null;
  if (e.registration === 'not_yet') return `Opens ${opens}${closes ? `, closes ${closes}` : ''}`;
  if (e.registration === 'closed') return `Closed ${closes}`;
  return closes ? `Open until ${closes}` : 'Open, no closing date';
}

const REGISTRATION_STYLES: Record<Edition['registration'], string> = {
  open: 'border-jade-400 bg-jade-600/20 text-jade-400',
  not_yet: 'border-gold-400 bg-gold-500/15 text-gold-400',
  closed: 'border-ember-400 bg-ember-500/15 text-ember-400',
};

function EditionCard({
  edition,
  editions,
  browsing,
  onMakeCurrent,
}: {
  edition: Edition;
  editions: Edition[];
  /** The past edition the console browses, if any: then nothing is changed here. */
  browsing: Edition | null;
  onMakeCurrent: (edition: Edition) => void;
}) {
  const queryClient = useQueryClient();
  const [, setParams] = useSearchParams();
  const past = edition.closedAt !== null;
  const [editing, setEditing] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: (body: Parameters<typeof updateEdition>[1]) => updateEdition(edition.id, body),
    onSuccess: async (saved) => {
      await queryClient.invalidateQueries({ queryKey: editionsKey });
      // The current edition is also the event settings.
      if (saved.current) await queryClient.invalidateQueries({ queryKey: eventSettingsKey });
      toast.success(`${saved.name} saved`);
      setEditing(false);
    },
    onError: (error) => setProblem(failed(error, 'Failed to save the edition')),
  });
  const dates =
    edition.startsOn && edition.endsOn
      ? `${formatRallyDay(`${edition.startsOn}T12:00:00+08:00`)} – ${formatRallyDay(`${edition.endsOn}T12:00:00+08:00`)}`
      : 'Dates not set';
  return (
    <li
      className={`rounded-xl border bg-ink-900 p-4 sm:p-6 ${edition.current ? 'border-fire-500' : 'border-ink-700'}`}
      data-testid="edition"
    >
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0">
          <p className="text-sm font-bold uppercase tracking-wide text-smoke">{edition.year}</p>
          <h3 className="text-2xl text-bone">{edition.name}</h3>
        </div>
        <div className="flex flex-wrap items-center gap-2">
          {edition.current && (
            <span className="rounded-full bg-fire-500 px-3 py-1 text-xs font-bold uppercase tracking-wide text-ink-950">
              Current
            </span>
          )}
          {past && (
            <span className="rounded-full border border-gold-400 px-3 py-1 text-xs font-bold uppercase tracking-wide text-gold-300">
              Past
            </span>
          )}
          {past && browsing?.id !== edition.id && (
            <button
              type="button"
              className={buttonStyles('secondary', 'md')}
              onClick={() => setParams({ tab: 'masterlist', edition: edition.id })}
            >
              <History className="size-4" aria-hidden="true" />
              Browse<span className="sr-only"> {edition.name}</span>
            </button>
          )}
          {!edition.current && !past && !editing && !browsing && (
            <button type="button" className={buttonStyles('primary', 'md')} onClick={() => onMakeCurrent(edition)}>
              <Rocket className="size-4" aria-hidden="true" />
              Make Current<span className="sr-only"> {edition.name}</span>
            </button>
          )}
          {!editing && !browsing && (
            <button type="button" className={buttonStyles('secondary', 'md')} onClick={() => setEditing(true)}>
              <Pencil className="size-4" aria-hidden="true" />
              Edit<span className="sr-only"> {edition.name}</span>
            </button>
          )}
        </div>
      </div>
      {editing ? (
        <div className="mt-4">
          <EditionForm
            edition={edition}
            editions={editions}
            pending={save.isPending}
            problem={problem}
            onProblem={setProblem}
            onSubmit={(body) => save.mutate(body)}
            onCancel={() => {
              setProblem(null);
              setEditing(false);
            }}
          />
        </div>
      ) : (
        <dl className="mt-3 grid gap-x-6 gap-y-2 text-sm sm:grid-cols-2">
          <div>
            <dt className="text-smoke">Dates</dt>
            <dd className="font-bold text-bone">{dates}</dd>
          </div>
          <div>
            <dt className="text-smoke">Registration</dt>
            <dd>
              <span
                className={`inline-block rounded-md border px-2 py-0.5 font-bold ${REGISTRATION_STYLES[edition.registration]}`}
                data-testid="edition-registration"
              >
                {registrationText(edition)}
              </span>
            </dd>
          </div>
          <div>
            <dt className="text-smoke">Returning riders' numbers held until</dt>
            <dd className="font-bold text-bone">
              {edition.numbersHeldUntil ? formatRallyMoment(edition.numbersHeldUntil) : 'Not held'}
            </dd>
          </div>
          <div>
            <dt className="text-smoke">Prices</dt>
            <dd className="font-bold text-bone" data-testid="edition-prices">
              {formatPeso(edition.prices.lakan)} Lakan · {formatPeso(edition.prices.bagani)} Bagani ·{' '}
              {formatPeso(edition.prices.lakambini)} Lakambini
            </dd>
          </div>
          <div>
            <dt className="text-smoke">Emergency hotline</dt>
            <dd className="font-bold text-bone">{edition.hotline ?? 'None: riders are pointed to 911'}</dd>
          </div>
          {edition.copiedFrom && (
            <div className="sm:col-span-2">
              <dt className="text-smoke">Settings copied from</dt>
              <dd className="font-bold text-bone">
                {editions.find((e) => e.id === edition.copiedFrom)?.name ?? 'an edition since renamed'}
              </dd>
            </div>
          )}
        </dl>
      )}
      {!editing && <RetentionSection editionId={edition.id} readOnly={!!browsing} />}
    </li>
  );
}
