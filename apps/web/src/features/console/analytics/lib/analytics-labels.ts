// How the tab names what the server counts: the same words the rest of the console uses.
import type { RallyRouteId } from '@rally/shared/catalog/event-day';
import { RALLY_ROUTES } from '@rally/shared/catalog/landing';
import { categoryDisplay, PAYMENT_METHOD_LABELS, type PaymentMethod } from '@rally/shared/catalog/registration';
import type { SizeLine } from '@rally/shared/contracts/analytics';

export function categoryLabel(category: string | null): string {
  return category ? categoryDisplay(category).name : 'Not set';
}

export function routeLabel(route: RallyRouteId | null): string {
  return route ? RALLY_ROUTES[route].name : 'No category';
}

export function paymentLabel(method: PaymentMethod | null): string {
  return method ? PAYMENT_METHOD_LABELS[method] : 'Not set';
}

export function sizeLabel(line: SizeLine): string {
  return line.size === 'CUSTOM' ? `Custom: ${line.custom}` : line.size;
}

const DAY_FORMAT = new Intl.DateTimeFormat('en-PH', { month: 'short', day: 'numeric', timeZone: 'UTC' });

/** A Manila calendar day (`YYYY-MM-DD`) as "Nov 1"; the date is already Manila's, so it is read as UTC. */
export function dayLabel(date: string): string {
  return DAY_FORMAT.format(new Date(`${date}T00:00:00Z`));
}

/** A duration as staff say it: "45 min", "2 h 15 min", "3 d 4 h"; "—" when there is none. */
export function durationLabel(seconds: number | null): string {
  if (seconds === null) return '—';
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return minutes % 60 === 0 ? `${hours} h` : `${hours} h ${minutes % 60} min`;
  const days = Math.floor(hours / 24);
  return hours % 24 === 0 ? `${days} d` : `${days} d ${hours % 24} h`;
}
