// The access log's sources in plain words (DESIGN.md §12): a line names the route
// (`GET /api/admin/users/:id`) or the export (`export insurance-bagani.csv`) that carried the
// rider's data; riders and staff read the screen or the file it was. A source not named here
// (a new screen) shows as it was logged rather than not at all.
import type { SensitiveKind } from '@rally/shared/catalog/privacy';

const CONSOLE = 'in the Command Center';

/** Route paths (after the method), most specific first. */
const SCREENS: ReadonlyArray<readonly [RegExp, string]> = [
  [/^\/api\/admin\/users\/:id\/login-activity$/, `Login history ${CONSOLE}`],
  [/^\/api\/admin\/users\/:id(\/.*)?$/, `User details ${CONSOLE}`],
  [/^\/api\/admin\/users$/, `User list ${CONSOLE}`],
  [/^\/api\/admin\/masterlist/, `Participant masterlist ${CONSOLE}`],
  [/^\/api\/admin\/incidents/, `Incidents (SOS) ${CONSOLE}`],
  [/^\/api\/admin\/event\/riders\/:id\/timeline$/, `Rider’s event-day timeline ${CONSOLE}`],
  [/^\/api\/admin\/event\//, `Event-day board ${CONSOLE}`],
  [/^\/api\/admin\/tracking\//, `Live tracking ${CONSOLE}`],
  [/^\/api\/admin\/id-cards\//, `ID cards ${CONSOLE}`],
  [/^\/api\/admin\/kit-tracking/, `Kit hand-over ${CONSOLE}`],
  [/^\/api\/admin\/verifications\//, `Verification desk ${CONSOLE}`],
  [/^\/api\/admin\/scan-roster$/, 'Marshal’s scanner (rider list)'],
  [/^\/api\/admin\/scans\//, `Checkpoint scans ${CONSOLE}`],
  [/^\/api\/admin\/messages/, `Messages ${CONSOLE}`],
  [/^\/api\/admin\/payment-statements/, `Payment statements ${CONSOLE}`],
  [/^\/api\/admin\/dashboard\//, `Dashboard ${CONSOLE}`],
];

/** Exports by name (the file's name before its extension). */
const EXPORTS: Readonly<Record<string, string>> = {
  masterlist: 'Masterlist export',
  'insurance-lakambini-lakan': 'Insurance export',
  'insurance-bagani': 'Insurance export',
  incidents: 'Incidents export',
};

const OTHER_SOURCES: Readonly<Record<string, string>> = {
  'live board stream': `Live board ${CONSOLE}`,
};

/** `GET /api/admin/users/:id` → 'User details in the Command Center'; unknown → as logged. */
export function sourceLabel(source: string): string {
  const exported = /^export ([a-z0-9-]+)\.(csv|xlsx)$/.exec(source);
  if (exported?.[1]) {
    const name = EXPORTS[exported[1]];
    return name ?? `Export ${exported[1]}.${exported[2]}`;
  }
  const other = OTHER_SOURCES[source];
  if (other) return other;
  const route = /^([A-Z]+) (\/\S+)$/.exec(source);
  if (route?.[1] && route[2]) {
    const screen = SCREENS.find(([pattern]) => pattern.test(route[2] as string))?.[1];
    if (screen) return route[1] === 'GET' ? screen : `${screen}, while saving a change`;
  }
  return source;
}

/** The file format of an export line ('CSV', 'Excel'), or null for a screen. */
export function exportFormat(source: string): string | null {
  const match = /^export [a-z0-9-]+\.(csv|xlsx)$/.exec(source);
  return match ? (match[1] === 'csv' ? 'CSV' : 'Excel') : null;
}

/** The badge colours of each kind: medical and licence stand out as the most sensitive. */
export const KIND_BADGE: Record<SensitiveKind, string> = {
  medical: 'border-ember-500 bg-ember-700/30 text-ember-400',
  emergency_contact: 'border-gold-500 bg-gold-500/15 text-gold-300',
  birthdate: 'border-ink-500 bg-ink-800 text-bone',
  licence: 'border-ember-500 bg-ember-700/30 text-ember-400',
  position: 'border-jade-400 bg-jade-600/20 text-jade-400',
};
