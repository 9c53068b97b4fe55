// The rider number: 1 to 1000, unique within the edition (DESIGN §9). Its range, the one
// message a rider sees for a number outside it, and the check the registration form, the API
// (contracts/rider-numbers.ts) and the database's constraint (apps/server/src/db/schema/users.ts)
// all read from here. No zod here: the catalog names these, and the landing page loads it.

export const RIDER_NUMBER_MIN = 1;
export const RIDER_NUMBER_MAX = 1000;
export const RIDER_NUMBER_MESSAGE = `Please select a rider number (${RIDER_NUMBER_MIN}-${RIDER_NUMBER_MAX}).`;

/** A whole number within the range. */
export function isRiderNumber(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= RIDER_NUMBER_MIN && value <= RIDER_NUMBER_MAX;
}

export const RIDER_NUMBERS_PER_PAGE = 50;
/** Quick-jump ranges of the rider-number picker: 1-99, then hundreds up to 900-1000. */
export const RIDER_NUMBER_RANGES: ReadonlyArray<{ label: string; from: number; to: number }> = [
  { label: `${RIDER_NUMBER_MIN}-99`, from: RIDER_NUMBER_MIN, to: 99 },
  ...Array.from({ length: 9 }, (_, i) => {
    const from = (i + 1) * 100;
    const to = i === 8 ? RIDER_NUMBER_MAX : from + 99;
    return { label: `${from}-${to}`, from, to };
  }),
];
