// "3 min ago" for a position's time, on the rider pass and the board alike: minutes matter
// (a rider stopped for 15 of them raises an alert), seconds do not.
export function sinceText(iso: string, now: number = Date.now()): string {
  const seconds = Math.floor((now - Date.parse(iso)) / 1000);
  if (Number.isNaN(seconds)) return '';
  // A phone clock slightly ahead of the screen's: still "just now", never "-1 min".
  if (seconds < 60) return 'just now';
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return minutes % 60 === 0 ? `${hours} h ago` : `${hours} h ${minutes % 60} min ago`;
  const days = Math.floor(hours / 24);
  return days === 1 ? '1 day ago' : `${days} days ago`;
}

/** "3 positions waiting for signal" (one is a position, not positions). */
export function waitingText(count: number): string {
  return `${count} ${count === 1 ? 'position' : 'positions'} waiting for signal`;
}
