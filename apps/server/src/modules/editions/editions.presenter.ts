import { registrationState } from '@rally/shared/catalog/editions';
import type { Edition } from '@rally/shared/contracts/editions';
import type { EditionRow } from '../../db/schema/editions';
import { pricesOf, windowOf } from './editions.service';

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
    closedAt: row.closedAt?.toISOString() ?? null,
    hotline: row.hotline,
    prices: pricesOf(row),
    copiedFrom: row.copiedFrom,
    registration: registrationState(window, now),
  };
}
