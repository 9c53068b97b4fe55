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
}

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
});

/** The request the values make, checked by the same contract as the server's; or the first problem. */
function toRequest(v: Values, creating: boolean) {
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
    return createEditionRequest.safeParse({ ...body, ...hotline, ...copyFrom });
  }
  return updateEditionRequest.safeParse({ ...body, hotline: v.hotline.trim() || null });
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
        const parsed = toRequest(v, creating);
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
