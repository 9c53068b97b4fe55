// Route rules (manage_event): per route, the grace before an on-course rider counts as
// overdue, and per station a cutoff, whether it is required (or the station's own
// setting), and when a rider is due there (minutes after their start). Saved as a whole.
import type { RallyRouteId } from '@rally/shared/catalog/event-day';
import { RALLY_ROUTES } from '@rally/shared/catalog/landing';
import type { RouteRulesView, UpdateRouteRulesRequest } from '@rally/shared/contracts/course';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { buttonStyles } from '../../../../components/ui/button-styles';
import { inputStyles, labelStyles } from '../../../../components/ui/field-styles';
import { ApiError } from '../../../../lib/api-client';
import { toast } from '../../../../lib/toast';
import { boardKeys, rulesQuery, saveRouteRules } from '../api/board-api';

interface StationDraft {
  stationId: string;
  name: string;
  stationRequired: boolean;
  required: '' | 'yes' | 'no';
  cutoff: string;
  dueMinutes: string;
}

/** An ISO instant as the local 'YYYY-MM-DDTHH:mm' a datetime-local field shows. */
function toLocalInput(iso: string | null): string {
  if (!iso) return '';
  const d = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

function draftOf(rules: RouteRulesView): { grace: string; stations: StationDraft[] } {
  return {
    grace: String(rules.overdueAfterMinutes),
    stations: rules.stations.map((s) => ({
      stationId: s.stationId,
      name: s.name,
      stationRequired: s.stationRequired,
      required: s.requiredOverride === null ? '' : s.requiredOverride ? 'yes' : 'no',
      cutoff: toLocalInput(s.cutoffAt),
      dueMinutes: s.dueMinutes === null ? '' : String(s.dueMinutes),
    })),
  };
}

function bodyOf(draft: { grace: string; stations: StationDraft[] }): UpdateRouteRulesRequest {
  return {
    overdueAfterMinutes: Number(draft.grace),
    stations: draft.stations.map((s) => ({
      stationId: s.stationId,
      required: s.required === '' ? null : s.required === 'yes',
      cutoffAt: s.cutoff ? new Date(s.cutoff).toISOString() : null,
      dueMinutes: s.dueMinutes === '' ? null : Number(s.dueMinutes),
    })),
  };
}

function RouteRulesForm({ rules, canEdit }: { rules: RouteRulesView; canEdit: boolean }) {
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState(() => draftOf(rules));
  const [problem, setProblem] = useState<string | null>(null);
  const graceId = useId();
  const save = useMutation({
    mutationFn: () => saveRouteRules(rules.routeId, bodyOf(draft)),
    onSuccess: () => toast.success(`${RALLY_ROUTES[rules.routeId].name} rules saved`),
    onError: (error) => setProblem(error instanceof ApiError ? error.message : 'Failed to save the rules'),
    onSettled: () => queryClient.invalidateQueries({ queryKey: boardKeys.all }),
  });
  const setStation = (i: number, patch: Partial<StationDraft>) =>
    setDraft((d) => ({ ...d, stations: d.stations.map((s, j) => (j === i ? { ...s, ...patch } : s)) }));

  return (
    <form
      className="space-y-3"
      onSubmit={(e) => {
        e.preventDefault();
        setProblem(null);
        save.mutate();
      }}
    >
      <fieldset disabled={!canEdit || save.isPending} className="space-y-3">
        <div className="max-w-xs">
          <label htmlFor={graceId} className={labelStyles}>
            Overdue after (minutes past due)
          </label>
          <input
            id={graceId}
            type="number"
            min={0}
            max={1440}
            inputMode="numeric"
            className={inputStyles}
            value={draft.grace}
            onChange={(e) => setDraft((d) => ({ ...d, grace: e.target.value }))}
          />
        </div>
        {draft.stations.length === 0 ? (
          <p className="text-ash">No station serves this route on this day.</p>
        ) : (
          <ul className="space-y-2">
            {draft.stations.map((s, i) => (
              <li
                key={s.stationId}
                data-testid="rule-station"
                className="grid gap-2 rounded-lg border-2 border-ink-700 p-3 sm:grid-cols-[1fr_10rem_13rem_8rem] sm:items-end"
              >
                <p className="font-display text-lg tracking-wide text-bone uppercase sm:self-center">{s.name}</p>
                <label className="block">
                  <span className={labelStyles}>Required</span>
                  <select
                    className={inputStyles}
                    value={s.required}
                    onChange={(e) => setStation(i, { required: e.target.value as StationDraft['required'] })}
                  >
                    <option value="">Station default ({s.stationRequired ? 'yes' : 'no'})</option>
                    <option value="yes">Required</option>
                    <option value="no">Not required</option>
                  </select>
                </label>
                <label className="block">
                  <span className={labelStyles}>Cutoff</span>
                  <input
                    type="datetime-local"
                    className={inputStyles}
                    value={s.cutoff}
                    onChange={(e) => setStation(i, { cutoff: e.target.value })}
                  />
                </label>
                <label className="block">
                  <span className={labelStyles}>Due (min)</span>
                  <input
                    type="number"
                    min={0}
                    inputMode="numeric"
                    aria-label={`Due at ${s.name}, minutes after start`}
                    className={inputStyles}
                    value={s.dueMinutes}
                    onChange={(e) => setStation(i, { dueMinutes: e.target.value })}
                  />
                </label>
              </li>
            ))}
          </ul>
        )}
      </fieldset>
      {problem && (
        <p role="alert" className="font-bold text-ember-400">
          {problem}
        </p>
      )}
      {canEdit && (
        <button type="submit" className={buttonStyles('primary')} disabled={save.isPending}>
          {save.isPending ? 'Saving...' : 'Save Rules'}
        </button>
      )}
    </form>
  );
}

export function RouteRulesEditor({ canEdit }: { canEdit: boolean }) {
  const query = useQuery(rulesQuery());
  const [routeId, setRouteId] = useState<RallyRouteId>('lakambini');
  const rules = query.data?.find((r) => r.routeId === routeId);
  return (
    <div className="space-y-3">
      <div role="tablist" aria-label="Route rules" className="grid grid-cols-3 gap-2">
        {(query.data ?? []).map((r) => (
          <button
            key={r.routeId}
            type="button"
            role="tab"
            aria-selected={r.routeId === routeId}
            onClick={() => setRouteId(r.routeId)}
            className={`min-h-11 rounded-md border-2 px-2 py-1 font-display text-sm leading-tight tracking-wider wrap-anywhere uppercase sm:text-base ${
              r.routeId === routeId ? 'border-fire-500 bg-fire-500 text-ink-950' : 'border-ink-600 text-bone'
            }`}
          >
            {RALLY_ROUTES[r.routeId].name.replace('/', '/\u200b')}
          </button>
        ))}
      </div>
      {query.isPending && <p className="text-ash">Loading rules...</p>}
      {query.isError && <p className="text-ember-400">Failed to load the rules</p>}
      {!canEdit && (
        <p className="text-sm text-ash">Read only: rules are set by organisers with event management access.</p>
      )}
      {/* Keyed by the saved version: a save elsewhere (another board) resets the draft. */}
      {rules && <RouteRulesForm key={`${rules.routeId}:${rules.updatedAt ?? ''}`} rules={rules} canEdit={canEdit} />}
    </div>
  );
}
