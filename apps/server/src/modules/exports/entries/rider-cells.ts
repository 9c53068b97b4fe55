// Cells several exports print the same way.
import type { GENDERS } from '@rally/shared/catalog/accounts';
import { routeForCategory } from '@rally/shared/catalog/event-day';
import { RALLY_ROUTES } from '@rally/shared/catalog/landing';
import { categoryDisplay } from '@rally/shared/catalog/registration';
import { sql } from 'drizzle-orm';
import { entries } from '../../../db/schema/entries';
import { users } from '../../../db/schema/users';

/** A category as the console shows it ('LAKAN OBR'); empty when unset. */
export function categoryCell(category: string | null): string {
  return category ? categoryDisplay(category).name : '';
}

/** The route a category rides ('Lakambini/Magani' for magani). */
export function routeCell(category: string | null): string {
  const route = routeForCategory(category);
  return route ? RALLY_ROUTES[route].name : '';
}

export function genderCell(gender: (typeof GENDERS)[number] | null): string {
  return gender === 'male' ? 'Male' : gender === 'female' ? 'Female' : '';
}

/** A size, or the custom text when CUSTOM was chosen. */
export function sizeCell(size: string | null, custom: string | null): string {
  if (!size) return '';
  return size === 'CUSTOM' ? `CUSTOM: ${custom?.trim() || '(no size given)'}` : size;
}

/**
 * Ordered by rider number, riders without one last, then by name. Needs `entries` joined on
 * `entryIn(edition)` (the number is the entry's).
 */
export const byRiderNumber = [
  sql`${entries.riderNumber} asc nulls last`,
  sql`${users.lastName} asc`,
  sql`${users.firstName} asc`,
  sql`${users.id} asc`,
];
