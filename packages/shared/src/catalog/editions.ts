// Editions (DESIGN.md §9): one year's rally. The texts a rider reads when registration is
// closed, and the console's words, in one place for the server and the web.
import { RALLY_TIME_ZONE, rallyWallClock } from './event-day';

export const EDITION_YEAR_MIN = 2000;
export const EDITION_YEAR_MAX = 2200;

// Composed from parts, not the locale's pattern: ICU versions (Node 20, Node 24, browsers)
// join date and time differently (", " or " at ") and space the AM differently.
const momentParts = new Intl.DateTimeFormat('en-US', {
  timeZone: RALLY_TIME_ZONE,
  year: 'numeric',
  month: 'long',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  hour12: true,
});
const partsOf = (iso: string) =>
  Object.fromEntries(momentParts.formatToParts(new Date(iso)).map((p) => [p.type, p.value])) as Record<string, string>;

/** "February 1, 2027, 8:00 AM" (Manila time), the way the window is named to riders. */
export function formatRallyMoment(iso: string): string {
  const p = partsOf(iso);
  return `${p.month} ${p.day}, ${p.year}, ${p.hour}:${p.minute} ${p.dayPeriod}`;
}
/** "February 1, 2027" (Manila time). */
export function formatRallyDay(iso: string): string {
  const p = partsOf(iso);
  return `${p.month} ${p.day}, ${p.year}`;
}

export type RegistrationWindowState = 'open' | 'not_yet' | 'closed';

export interface RegistrationWindow {
  registrationOpensAt: string | null;
  registrationClosesAt: string | null;
}

/** Where `now` falls in an edition's registration window (a null end is open). */
export function registrationState(w: RegistrationWindow, now: Date): RegistrationWindowState {
  if (w.registrationOpensAt && now.getTime() < Date.parse(w.registrationOpensAt)) return 'not_yet';
  if (w.registrationClosesAt && now.getTime() >= Date.parse(w.registrationClosesAt)) return 'closed';
  return 'open';
}

/** The refusal outside the window, naming the dates: the server's 409 and the form's notice say the same. */
export function registrationClosedMessage(name: string, w: RegistrationWindow, now: Date): string | null {
  const state = registrationState(w, now);
  if (state === 'open') return null;
  if (state === 'closed')
    return `Registration for ${name} closed on ${formatRallyMoment(w.registrationClosesAt as string)}.`;
  const closes = w.registrationClosesAt ? ` It closes on ${formatRallyMoment(w.registrationClosesAt)}.` : '';
  return `Registration for ${name} opens on ${formatRallyMoment(w.registrationOpensAt as string)}.${closes}`;
}

const MANILA_OFFSET = '+08:00';

/** An instant as a `datetime-local` input's value in Manila time (`2027-02-01T08:00`). */
export function toRallyLocalInput(iso: string | null): string {
  if (!iso) return '';
  const p = rallyWallClock(new Date(iso));
  return `${p.year}-${p.month}-${p.day}T${p.hour}:${p.minute}`;
}

/** A `datetime-local` value read as Manila time (no daylight saving there), as ISO 8601; empty is null. */
export function fromRallyLocalInput(value: string): string | null {
  if (!value) return null;
  return `${value.length === 16 ? `${value}:00` : value}${MANILA_OFFSET}`;
}
