// Display formatting shared by the screens.

/**
 * 2700 -> '₱2,700'. Grouped by hand rather than with Intl.NumberFormat: the landing page is
 * prerendered by Node and hydrated by the browser, whose locale data may differ (a mismatch),
 * and building the formatter at startup cost a throttled phone ~45 ms on the landing page.
 */
export function formatPeso(amount: number): string {
  const whole = Math.sign(amount) * Math.round(Math.abs(amount));
  const digits = String(Math.abs(whole)).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  return `₱${whole < 0 ? '-' : ''}${digits}`;
}

/** 7 -> '007': rider numbers read like race plates. */
export function formatRiderNumber(riderNumber: number | null | undefined): string {
  if (riderNumber === null || riderNumber === undefined) return '---';
  return String(riderNumber).padStart(3, '0');
}

export function formatTime(date: Date): string {
  return date.toLocaleTimeString('en-PH', { hour: 'numeric', minute: '2-digit', second: '2-digit' });
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * 'Jan 5, 2000': what toLocaleDateString('en-PH', { year, month: 'short', day }) gives
 * (format.test.ts holds them equal), written out by hand. The first Intl date format of a
 * page loads the browser's locale data: on a slow phone that one call was My Profile's
 * longest task (~140 ms) while it hydrated.
 */
export function formatDate(value: string | Date): string {
  const date = typeof value === 'string' ? new Date(value) : value;
  if (Number.isNaN(date.getTime())) return '';
  return `${MONTHS[date.getMonth()]} ${date.getDate()}, ${date.getFullYear()}`;
}

/**
 * Comment times: switch points at 1 minute, 60 minutes, 24 hours and 7 days,
 * after which the date is shown.
 */
export function formatRelativeTime(value: string | Date, now: Date = new Date()): string {
  const date = typeof value === 'string' ? new Date(value) : value;
  const seconds = Math.floor((now.getTime() - date.getTime()) / 1000);
  if (Number.isNaN(seconds)) return '';
  if (seconds < 60) return 'Just now';
  const minutes = Math.floor(seconds / 60);
  if (minutes < 60) return `${minutes}m ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours}h ago`;
  const days = Math.floor(hours / 24);
  if (days < 7) return `${days}d ago`;
  return formatDate(date);
}
