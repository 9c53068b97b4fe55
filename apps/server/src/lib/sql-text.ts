// Small helpers for the staff lists' SQL: text search and raw query results.

/** A user's search text as an ILIKE pattern: their %, _ and \ match themselves, not anything. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The rows of a raw `db.execute` result; both drivers put them under `rows`. */
export function rowsOf<T>(result: unknown): T[] {
  return ((result as { rows?: T[] }).rows ?? []) as T[];
}

/** Timestamps come back as Date from both drivers, but be liberal with strings. */
export function isoOrNull(value: Date | string | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  const date = value instanceof Date ? value : new Date(value);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

export function iso(value: Date | string): string {
  return isoOrNull(value) ?? new Date(0).toISOString();
}

/** Staff lists name people "First Last". */
export function fullName(first: string | null | undefined, last: string | null | undefined): string {
  return `${first ?? ''} ${last ?? ''}`.trim();
}

/** The same name of a person read whole (a user row, a session's account), as the activity log writes it. */
export function displayName(person: { firstName: string | null; lastName: string | null }): string {
  return fullName(person.firstName, person.lastName);
}

/**
 * The row of a query that always answers exactly one: an aggregate without GROUP BY, an
 * INSERT … RETURNING of one row, an UPDATE whose row was just read in the same transaction.
 */
export function onlyRow<T>(rows: T[]): T {
  const row = rows[0];
  if (row === undefined) throw new Error('The query answered no row');
  return row;
}
