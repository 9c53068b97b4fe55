import type { LiveRider } from '@rally/shared/contracts/live';

/** 'h:mm:ss' for an elapsed time (a rally runs for hours, sometimes days). */
export function formatElapsed(ms: number): string {
  const total = Math.max(0, Math.round(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  return `${h}:${String(m).padStart(2, '0')}:${String(s).padStart(2, '0')}`;
}

/** '10:42 AM', with the day once it is not today. */
export function formatSeenAt(iso: string, now = new Date()): string {
  const at = new Date(iso);
  const time = at.toLocaleTimeString('en-PH', { hour: 'numeric', minute: '2-digit' });
  if (at.toDateString() === now.toDateString()) return time;
  return `${at.toLocaleDateString('en-PH', { month: 'short', day: 'numeric' })}, ${time}`;
}

/** A search by number ("12", "#12") or by kit name, case-insensitive. */
export function matchesSearch(rider: Pick<LiveRider, 'riderNumber' | 'kitName'>, query: string): boolean {
  const q = query.trim().toLowerCase().replace(/^#/, '');
  if (!q) return true;
  if (/^\d+$/.test(q)) return String(rider.riderNumber).startsWith(q);
  return rider.kitName.toLowerCase().includes(q);
}
