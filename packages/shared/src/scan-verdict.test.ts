// The scan verdict the server keeps and the marshal's phone shows: each flag alone, then the
// order in which they win when several apply (the first that applies is the one reported).
import { describe, expect, it } from 'vitest';
import { SCAN_CLOCK_SKEW_MS, type ScanFlagReasonName } from './catalog/event-day';
import { type ScanVerdictInput, scanVerdict, type VerdictRider, type VerdictStation } from './scan-verdict';

const now = Date.parse('2026-12-01T08:00:00Z');
const hour = 3_600_000;
const rider: VerdictRider = { verificationStatus: 'verified', active: true, route: 'lakan' };
const station: VerdictStation = {
  id: 's2',
  day: 1,
  order: 2,
  routes: [],
  opensAt: null,
  closesAt: null,
  closed: false,
};
const base: ScanVerdictInput = {
  rider,
  station,
  scannedAt: now,
  receivedAt: now,
  passedHere: false,
  highestOrderThatDay: undefined,
};

type Case = [
  string,
  { rider?: Partial<VerdictRider> | null; station?: Partial<VerdictStation> } & Partial<
    Omit<ScanVerdictInput, 'rider' | 'station'>
  >,
  ScanFlagReasonName | null,
];

const cases: Case[] = [
  // Clean passages.
  ['a verified rider at an open station of every route', {}, null],
  ['a station on the rider’s route', { station: { routes: ['lakan', 'bagani'] } }, null],
  [
    'inside the opening hours, given as dates',
    { station: { opensAt: new Date(now - hour), closesAt: new Date(now + hour) } },
    null,
  ],
  [
    'inside the opening hours, given as ISO text',
    { station: { opensAt: '2026-12-01T07:00:00Z', closesAt: '2026-12-01T09:00:00Z' } },
    null,
  ],
  ['a first scan at a later station (Missed is the board’s business)', { station: { order: 9 } }, null],
  ['an earlier station of the same day passed', { highestOrderThatDay: 1 }, null],
  ['the same order passed (two stations of one order)', { highestOrderThatDay: 2 }, null],
  ['a device clock a little off', { scannedAt: now - SCAN_CLOCK_SKEW_MS }, null],
  [
    'no receiver clock: no skew check (the phone)',
    { scannedAt: now - 3 * SCAN_CLOCK_SKEW_MS, receivedAt: undefined },
    null,
  ],

  // Each flag alone.
  ['nobody with that code', { rider: null }, 'unknown_rider'],
  ['a payment not verified', { rider: { verificationStatus: 'pending' } }, 'not_verified'],
  ['no verification at all', { rider: { verificationStatus: null } }, 'not_verified'],
  ['a deactivated account', { rider: { active: false } }, 'not_verified'],
  ['a device clock more than a day behind', { scannedAt: now - SCAN_CLOCK_SKEW_MS - 1 }, 'clock_skew'],
  ['a device clock more than a day ahead', { receivedAt: now - SCAN_CLOCK_SKEW_MS - 1 }, 'clock_skew'],
  ['a station of another route', { station: { routes: ['bagani'] } }, 'wrong_route'],
  [
    'a rider of no route at a station with routes',
    { rider: { route: null }, station: { routes: ['lakan'] } },
    'wrong_route',
  ],
  ['already passed here', { passedHere: true }, 'rescan'],
  ['before opening', { station: { opensAt: new Date(now + 1) } }, 'before_opening'],
  ['before opening, ISO text', { station: { opensAt: '2026-12-01T09:00:00Z' } }, 'before_opening'],
  ['after closing', { station: { closesAt: new Date(now - 1) } }, 'after_closing'],
  ['after closing, ISO text', { station: { closesAt: '2026-12-01T07:00:00Z' } }, 'after_closing'],
  ['a closed station, whatever its hours', { station: { closed: true } }, 'after_closing'],
  ['a later station of the same day passed', { highestOrderThatDay: 3 }, 'out_of_order'],

  // Which wins when several apply.
  ['unknown beats everything', { rider: null, passedHere: true, station: { closed: true } }, 'unknown_rider'],
  ['not verified beats a skewed clock', { rider: { verificationStatus: 'pending' }, scannedAt: 0 }, 'not_verified'],
  ['a skewed clock beats a wrong route', { scannedAt: 0, station: { routes: ['bagani'] } }, 'clock_skew'],
  ['a wrong route beats a re-scan', { station: { routes: ['bagani'] }, passedHere: true }, 'wrong_route'],
  ['a re-scan beats the opening hours', { passedHere: true, station: { opensAt: new Date(now + hour) } }, 'rescan'],
  ['a re-scan beats a closed station', { passedHere: true, station: { closed: true } }, 'rescan'],
  [
    'before opening beats a closed station',
    { station: { opensAt: new Date(now + hour), closed: true } },
    'before_opening',
  ],
  ['a closed station beats out of order', { station: { closed: true }, highestOrderThatDay: 5 }, 'after_closing'],
];

describe('scanVerdict', () => {
  it.each(cases)('%s', (_name, over, expected) => {
    const { rider: riderOver, station: stationOver, ...rest } = over;
    const input: ScanVerdictInput = {
      ...base,
      ...rest,
      rider: riderOver === null ? null : { ...rider, ...riderOver },
      station: { ...station, ...stationOver },
    };
    expect(scanVerdict(input)).toBe(expected);
  });
});
