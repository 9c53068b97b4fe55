// The fields of an edition, for making the next one and for changing one. Moments (the
// registration window, the held numbers) are typed as Manila time, whatever the device's
// zone: the rally's clock.
import {
  EDITION_YEAR_MAX,
  EDITION_YEAR_MIN,
  fromRallyLocalInput,
  toRallyLocalInput,
} from '@rally/shared/catalog/editions';
import { EVENT_NAME_MAX, HOTLINE_MAX } from '@rally/shared/catalog/event-day';
import { PRICE_KEYS, PRICE_MAX, PRICES, type PriceKey } from '@rally/shared/catalog/registration';
import { createEditionRequest, type Edition, updateEditionRequest } from '@rally/shared/contracts/editions';
import { Save } from 'lucide-react';
import { useState } from 'react';
import { buttonStyles } from '../../../../components/ui/button-styles';
import { TextField } from '../../../../components/ui/text-field';
import { SelectField } from '../../components/select-field';

interface Values {
  name: string;
  year: string;
  startsOn: string;
  endsOn: string;
  registrationOpensAt: string;
  registrationClosesAt: string;
  numbersHeldUntil: string;
  hotline: string;
  copyFrom: string;
  /** Pesos as typed; empty keeps the price as it is (or as copied). */
  prices: Record<PriceKey, string>;
}

const PRICE_LABEL = (key: PriceKey) =>
  key === 'guest' ? 'Guest' : key.replace('-obr', ' OBR').replace(/^./, (c) => c.toUpperCase());

const valuesOf = (e: Edition | null, next?: { year: number; copyFrom: string }): Values => ({
  name: e?.name ?? '',
  year: String(e?.year ?? next?.year ?? ''),
  startsOn: e?.startsOn ?? '',
  endsOn: e?.endsOn ?? '',
  registrationOpensAt: toRallyLocalInput(e?.registrationOpensAt ?? null),
  registrationClosesAt: toRallyLocalInput(e?.registrationClosesAt ?? null),
  numbersHeldUntil: toRallyLocalInput(e?.numbersHeldUntil ?? null),
  hotline: e?.hotline ?? '',
  copyFrom: next?.copyFrom ?? '',
  prices: Object.fromEntries(PRICE_KEYS.map((k) => [k, e ? String(e.prices[k]) : ''])) as Record<PriceKey, string>,
});

/** The prices typed, as numbers (what is not a number is left for the contract to name). */
function typedPrices(v: Values, edition: Edition | null) {
  const typed = PRICE_KEYS.filter((k) => v.prices[k].trim() !== '');
  // Unchanged prices of an edition are not sent: its log names only what changed.
  const changed = typed.filter((k) => !edition || v.prices[k].trim() !== String(edition.prices[k]));
  if (changed.length === 0) return {};
  return { prices: Object.fromEntries(changed.map((k) => [k, Number(v.prices[k].trim())])) };
}

/** The request the values make, checked by the same contract as the server's; or the first problem. */
function toRequest(v: Values, edition: Edition | null) {
  const creating = edition === null;
  const body = {
    name: v.name.trim(),
    year: v.year.trim() === '' ? Number.NaN : Number(v.year),
    startsOn: v.startsOn || null,
    endsOn: v.endsOn || null,
    registrationOpensAt: fromRallyLocalInput(v.registrationOpensAt),
    registrationClosesAt: fromRallyLocalInput(v.registrationClosesAt),
    numbersHeldUntil: fromRallyLocalInput(v.numbersHeldUntil),
  };
  if (creating) {
    // A hotline left empty is taken from the edition the settings are copied from.
    const hotline = v.hotline.trim() ? { hotline: v.hotline.trim() } : {};
    const copyFrom = v.copyFrom ? { copyFrom: v.copyFrom } : {};
    return createEditionRequest.safeParse({ ...body, ...hotline, ...copyFrom, ...typedPrices(v, null) });
  }
  return updateEditionRequest.safeParse({ ...body, hotline: v.hotline.trim() || null, ...typedPrices(v, edition) });
}

export function EditionForm({
  edition,
  editions,
  next,
  pending,
  problem,
  onProblem,
  onSubmit,
  onCancel,
}: {
  /** The edition changed; null makes a new one. */
  edition: Edition | null;
  editions: Edition[];
  next?: { year: number; copyFrom: string };
  pending: boolean;
  problem: string | null;
  onProblem: (message: string | null) => void;
  onSubmit: (body: NonNullable<ReturnType<typeof toRequest>['data']>) => void;
  onCancel?: () => void;
}) {
  const creating = edition === null;
  const [v, setV] = useState(() => valuesOf(edition, next));
  const sourcePrices = editions.find((e) => e.id === v.copyFrom)?.prices;
  // A problem speaks of what was submitted: once a field changes, it is gone until the next try.
  const set = (field: keyof Values) => (e: { target: { value: string } }) => {
    setV({ ...v, [field]: e.target.value });
    if (problem) onProblem(null);
  };

  return (
    <form
      className="grid gap-4 sm:grid-cols-2"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        const parsed = toRequest(v, edition);
        if (!parsed.success) {
          onProblem(parsed.error.issues[0]?.message ?? 'Check the fields');
          return;
        }
        onProblem(null);
        onSubmit(parsed.data);
      }}
    >
      <TextField
        label="Edition name"
        value={v.name}
        maxLength={EVENT_NAME_MAX}
        required
        placeholder="Mindanao Warriors Endurance Rally 2027"
        onChange={set('name')}
      />
      <TextField
        label="Year"
        type="number"
        inputMode="numeric"
        min={EDITION_YEAR_MIN}
        max={EDITION_YEAR_MAX}
        value={v.year}
        required
        onChange={set('year')}
      />
      <TextField label="Starts on" type="date" value={v.startsOn} required={creating} onChange={set('startsOn')} />
      <TextField label="Ends on" type="date" value={v.endsOn} required={creating} onChange={set('endsOn')} />
      <TextField
        label="Registration opens"
        type="datetime-local"
        value={v.registrationOpensAt}
        hint="Manila time. Empty: open now."
        onChange={set('registrationOpensAt')}
      />
      <TextField
        label="Registration closes"
        type="datetime-local"
        value={v.registrationClosesAt}
        hint="Manila time. Empty: no closing date."
        onChange={set('registrationClosesAt')}
      />
      <TextField
        label="Returning riders' numbers held until"
        type="datetime-local"
        value={v.numbersHeldUntil}
        hint="Manila time. Until then a returning rider's number from last year is kept for them."
        onChange={set('numbersHeldUntil')}
      />
      <TextField
        label="Emergency hotline"
        type="tel"
        inputMode="tel"
        value={v.hotline}
        maxLength={HOTLINE_MAX}
        placeholder="+63 917 555 0101"
        hint={creating ? 'Empty: the hotline of the edition its settings are copied from.' : undefined}
        onChange={set('hotline')}
      />
      <fieldset className="sm:col-span-2">
        <legend className="mb-2 text-sm font-bold tracking-wide text-ash uppercase">Entry prices (pesos)</legend>
        {creating && <p className="mb-2 text-sm text-smoke">Empty: the price of the edition copied from.</p>}
        <div className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5">
          {PRICE_KEYS.map((key) => (
            <TextField
              key={key}
              label={PRICE_LABEL(key)}
              type="number"
              inputMode="numeric"
              min={0}
              max={PRICE_MAX}
              value={v.prices[key]}
              placeholder={creating ? String(sourcePrices?.[key] ?? PRICES[key]) : undefined}
              onChange={(e) => {
                setV({ ...v, prices: { ...v.prices, [key]: e.target.value } });
                if (problem) onProblem(null);
              }}
            />
          ))}
        </div>
      </fieldset>
      {creating && (
        <SelectField
          label="Copy settings from"
          className="sm:col-span-2"
          value={v.copyFrom}
          onChange={(copyFrom) => setV({ ...v, copyFrom })}
          options={[
            ['', 'Nothing: start blank'],
            ...editions.map((e) => [e.id, `${e.name} (${e.year})${e.current ? ' · current' : ''}`] as const),
          ]}
        />
      )}
      {problem && (
        <p role="alert" className="font-bold text-ember-400 sm:col-span-2">
          {problem}
        </p>
      )}
      <div className="flex flex-wrap gap-2 sm:col-span-2">
        <button type="submit" className={buttonStyles('primary')} disabled={pending}>
          <Save className="size-5" aria-hidden="true" />
          {pending ? 'Saving...' : creating ? 'Create Edition' : 'Save Edition'}
        </button>
        {onCancel && (
          <button type="button" className={buttonStyles('ghost')} onClick={onCancel}>
            Cancel
          </button>
        )}
      </div>
    </form>
  );
}
