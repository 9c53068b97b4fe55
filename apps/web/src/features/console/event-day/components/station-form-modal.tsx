import {
  RALLY_ROUTE_IDS,
  type RallyRouteId,
  STATION_KIND_LABELS,
  STATION_KINDS,
  STATION_NAME_MAX,
  type StationKindName,
} from '@rally/shared/catalog/event-day';
import { RALLY_ROUTES } from '@rally/shared/catalog/landing';
import { STATION_CODE_MAX, STATION_CODE_PREFIXES } from '@rally/shared/catalog/messages';
import { type CreateStationRequest, createStationRequest, type Station } from '@rally/shared/contracts/stations';
import { type FormEvent, useEffect, useId, useState } from 'react';
import { inputStyles, labelStyles } from '../../../../components/ui/field-styles';
import { FormModal } from '../../../../components/ui/form-modal';
import { fromLocalInput, toLocalInput } from './event-day-display';

interface Draft {
  name: string;
  /** Empty: the server makes one from the kind (creating) or keeps the current one (editing). */
  code: string;
  kind: StationKindName;
  day: string;
  routes: RallyRouteId[];
  opensAt: string;
  closesAt: string;
  required: boolean;
  lat: string;
  lng: string;
}

function draftOf(station: Station | null, defaultDay: number): Draft {
  return {
    name: station?.name ?? '',
    code: station?.code ?? '',
    kind: station?.kind ?? 'checkpoint',
    day: String(station?.day ?? defaultDay),
    routes: station ? [...station.routes] : [],
    opensAt: toLocalInput(station?.opensAt ?? null),
    closesAt: toLocalInput(station?.closesAt ?? null),
    required: station?.required ?? false,
    lat: station?.lat === null || station?.lat === undefined ? '' : String(station.lat),
    lng: station?.lng === null || station?.lng === undefined ? '' : String(station.lng),
  };
}

const optionalNumber = (text: string) => (text.trim() === '' ? null : Number(text));

/**
 * The station as the server will take it, or the first problem with it. The shared
 * contract checks it, so the form refuses exactly what the server would.
 */
function toRequest(draft: Draft): { body: CreateStationRequest } | { problem: string } {
  const candidate = {
    name: draft.name,
    code: draft.code.trim() === '' ? undefined : draft.code,
    kind: draft.kind,
    day: Number(draft.day),
    routes: draft.routes,
    opensAt: fromLocalInput(draft.opensAt),
    closesAt: fromLocalInput(draft.closesAt),
    required: draft.required,
    lat: optionalNumber(draft.lat),
    lng: optionalNumber(draft.lng),
  };
  if ((candidate.lat === null) !== (candidate.lng === null))
    return { problem: 'Give both latitude and longitude, or neither' };
  if (candidate.opensAt && candidate.closesAt && candidate.closesAt <= candidate.opensAt) {
    return { problem: 'The station must close after it opens' };
  }
  const parsed = createStationRequest.safeParse(candidate);
  if (!parsed.success) return { problem: parsed.error.issues[0]?.message ?? 'Check the station' };
  return { body: parsed.data };
}

/** `editing` undefined: closed; null: creating; a station: editing it. */
export function StationFormModal({
  editing,
  defaultDay,
  saving,
  serverProblem,
  onSave,
  onClose,
}: {
  editing: Station | null | undefined;
  defaultDay: number;
  saving: boolean;
  serverProblem: string | null;
  /** The whole station when creating; only the changed fields when editing. */
  onSave: (body: CreateStationRequest | Partial<CreateStationRequest>) => void;
  onClose: () => void;
}) {
  const [draft, setDraft] = useState<Draft>(() => draftOf(null, defaultDay));
  const [problem, setProblem] = useState<string | null>(null);
  const base = useId();
  const id = (name: string) => `${base}-${name}`;
  const open = editing !== undefined;

  useEffect(() => {
    if (editing === undefined) return;
    setDraft(draftOf(editing, defaultDay));
    setProblem(null);
  }, [editing, defaultDay]);

  const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setDraft((d) => ({ ...d, [key]: value }));
  const toggleRoute = (route: RallyRouteId, on: boolean) =>
    set('routes', on ? [...draft.routes, route] : draft.routes.filter((r) => r !== route));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const result = toRequest(draft);
    if ('problem' in result) {
      setProblem(result.problem);
      return;
    }
    setProblem(null);
    if (!editing) {
      onSave(result.body);
      return;
    }
    // An edit sends only what was changed: an untouched time keeps its seconds (the
    // input shows minutes), and an unchanged form saves nothing.
    const before = draftOf(editing, defaultDay);
    const changed = (Object.keys(draft) as Array<keyof Draft>).filter(
      (key) => JSON.stringify(draft[key]) !== JSON.stringify(before[key]),
    );
    if (changed.length === 0) {
      onClose();
      return;
    }
    const patch: Partial<CreateStationRequest> = {};
    // A code cleared while editing keeps the station's code: there is nothing to send for it.
    for (const key of changed) if (result.body[key] !== undefined) Object.assign(patch, { [key]: result.body[key] });
    if (Object.keys(patch).length === 0) {
      onClose();
      return;
    }
    onSave(patch);
  };

  const shown = problem ?? serverProblem;
  const formId = id('form');
  return (
    <FormModal
      open={open}
      onClose={onClose}
      title={editing ? 'Edit Station' : 'New Station'}
      formId={formId}
      onSubmit={submit}
      saving={saving}
      submitLabel={editing ? 'Save Station' : 'Create Station'}
      formClassName="grid gap-4 sm:grid-cols-2"
    >
      <div className="sm:col-span-2">
        <label htmlFor={id('name')} className={labelStyles}>
          Name
          <span className="ml-1 text-fire-400" aria-hidden="true">
            *
          </span>
        </label>
        <input
          id={id('name')}
          value={draft.name}
          onChange={(e) => set('name', e.target.value)}
          maxLength={STATION_NAME_MAX}
          required
          className={inputStyles}
          placeholder="e.g. Marilog checkpoint"
        />
      </div>
      <div className="sm:col-span-2">
        <label htmlFor={id('code')} className={labelStyles}>
          Code for texts
        </label>
        <input
          id={id('code')}
          value={draft.code}
          onChange={(e) => set('code', e.target.value.toUpperCase())}
          maxLength={STATION_CODE_MAX}
          autoCapitalize="characters"
          autoComplete="off"
          spellCheck={false}
          aria-describedby={id('code-hint')}
          className={`${inputStyles} font-mono uppercase`}
          placeholder={editing ? editing.code : `e.g. ${STATION_CODE_PREFIXES[draft.kind]}3`}
        />
        <p id={id('code-hint')} className="mt-1 text-sm text-ash">
          {editing
            ? `Marshals without data text it with rider numbers: ${draft.code || editing.code} 42 57.`
            : `Marshals without data text it with rider numbers (${STATION_CODE_PREFIXES[draft.kind]}3 42 57). Empty: the next free ${STATION_CODE_PREFIXES[draft.kind]} number.`}
        </p>
      </div>
      <div>
        <label htmlFor={id('kind')} className={labelStyles}>
          Kind
        </label>
        <select
          id={id('kind')}
          value={draft.kind}
          onChange={(e) => set('kind', e.target.value as StationKindName)}
          className={inputStyles}
        >
          {STATION_KINDS.map((k) => (
            <option key={k} value={k}>
              {STATION_KIND_LABELS[k]}
            </option>
          ))}
        </select>
      </div>
      <div>
        <label htmlFor={id('day')} className={labelStyles}>
          Day
        </label>
        <input
          id={id('day')}
          type="number"
          inputMode="numeric"
          min={1}
          max={30}
          value={draft.day}
          onChange={(e) => set('day', e.target.value)}
          className={inputStyles}
        />
      </div>
      <fieldset className="sm:col-span-2">
        <legend className={labelStyles}>Routes (none ticked: every route)</legend>
        <div className="flex flex-wrap gap-x-5 gap-y-2">
          {RALLY_ROUTE_IDS.map((route) => (
            <label key={route} className="flex min-h-11 cursor-pointer items-center gap-2 text-bone">
              <input
                type="checkbox"
                checked={draft.routes.includes(route)}
                onChange={(e) => toggleRoute(route, e.target.checked)}
                className="size-5 accent-fire-500"
              />
              {RALLY_ROUTES[route].name}
            </label>
          ))}
        </div>
      </fieldset>
      <div>
        <label htmlFor={id('opens')} className={labelStyles}>
          Opens (empty: always)
        </label>
        <input
          id={id('opens')}
          type="datetime-local"
          value={draft.opensAt}
          onChange={(e) => set('opensAt', e.target.value)}
          className={inputStyles}
        />
      </div>
      <div>
        <label htmlFor={id('closes')} className={labelStyles}>
          Closes (empty: never)
        </label>
        <input
          id={id('closes')}
          type="datetime-local"
          value={draft.closesAt}
          onChange={(e) => set('closesAt', e.target.value)}
          className={inputStyles}
        />
      </div>
      <div>
        <label htmlFor={id('lat')} className={labelStyles}>
          Latitude (optional)
        </label>
        <input
          id={id('lat')}
          inputMode="decimal"
          value={draft.lat}
          onChange={(e) => set('lat', e.target.value)}
          className={inputStyles}
          placeholder="7.5306"
        />
      </div>
      <div>
        <label htmlFor={id('lng')} className={labelStyles}>
          Longitude (optional)
        </label>
        <input
          id={id('lng')}
          inputMode="decimal"
          value={draft.lng}
          onChange={(e) => set('lng', e.target.value)}
          className={inputStyles}
          placeholder="125.2472"
        />
      </div>
      <label className="flex cursor-pointer items-start gap-3 text-bone sm:col-span-2">
        <input
          type="checkbox"
          checked={draft.required}
          onChange={(e) => set('required', e.target.checked)}
          className="mt-0.5 size-5 shrink-0 accent-fire-500"
        />
        Required for a finish (a rider who misses it does not finish)
      </label>
      {shown && (
        <p
          role="alert"
          className="rounded-md border border-ember-600 bg-ember-700/15 px-3 py-2 text-sm text-ember-400 sm:col-span-2"
        >
          {shown}
        </p>
      )}
    </FormModal>
  );
}
