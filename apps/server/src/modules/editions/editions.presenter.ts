import { registrationState } from '@rally/shared/catalog/editions';
import type { Edition } from '@rally/shared/contracts/editions';
import type { EditionRow } from '../../db/schema/editions';
import { windowOf } from './editions.service';

export function presentEdition(row: EditionRow, now: Date): Edition {
  const window = windowOf(row);
  return {
    id: row.id,
    name: row.name,
    year: row.year,
    startsOn: row.startsOn,
    endsOn: row.endsOn,
    ...window,
    numbersHeldUntil: row.numbersHeldUntil?.toISOString() ?? null,
    current: row.current,
    hotline: row.hotline,
    copiedFrom: row.copiedFrom,
    registration: registrationState(window, now),
  };
}
