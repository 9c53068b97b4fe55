// How incidents read on screen, for the rider's SOS panel and the console's board alike.
import type { Role } from '@rally/shared/catalog/accounts';

const TITLES: Partial<Record<Role, string>> = {
  marshall: 'Marshal',
  admin: 'Admin',
  officer: 'Officer',
  developer: 'Staff',
};

/** "Marshal Ana Santos": the way a rider in trouble hears who is coming. */
export function staffTitle(name: string, role: Role | null | undefined): string {
  const title = role ? TITLES[role] : undefined;
  return title ? `${title} ${name}` : name;
}

/** "10:42" in the rider's local time. */
export function clockTime(iso: string): string {
  return new Date(iso).toLocaleTimeString('en-PH', { hour: '2-digit', minute: '2-digit', hour12: false });
}

export function coordinatesText(p: { lat: number; lng: number; accuracy: number }): string {
  return `${p.lat.toFixed(5)}, ${p.lng.toFixed(5)} (±${Math.round(p.accuracy)} m)`;
}
