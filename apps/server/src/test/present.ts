// Narrowing for tests under noUncheckedIndexedAccess: a missing value fails the test at
// the line that expected it, not as a TypeError somewhere further down.

/** The value, or a failed test when it is undefined. */
export function present<T>(value: T | undefined, what = 'a value'): T {
  if (value === undefined) throw new Error(`Expected ${what}, got undefined`);
  return value;
}

/** The first row a query answered, or a failed test when it answered none. */
export function firstRow<T>(rows: readonly T[]): T {
  return present(rows[0], 'a row');
}
