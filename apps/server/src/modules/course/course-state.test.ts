import { describe, expect, it } from 'vitest';
import { bucketAt, type CourseStation, deriveState, type RouteRules } from './course-state';

const MIN = 60_000;
const T0 = Date.parse('2026-11-15T06:00:00Z');
const at = (minutes: number) => new Date(T0 + minutes * MIN);
const station = (id: string, kind: CourseStation['kind'], order: number, extra: Partial<CourseStation> = {}) => ({
  id,
  name: id,
  kind,
  day: 1,
  order,
  routes: [],
  required: false,
  ...extra,
});
const STATIONS: CourseStation[] = [
  station('start', 'start', 0),
  station('cp1', 'checkpoint', 1),
  station('cp2', 'checkpoint', 2, { routes: ['bagani'] }),
  station('finish', 'finish', 3, { required: true }),
];
const rider = { id: 'r1', riderNumber: 7, kitName: 'K', firstName: 'A', lastName: 'B', category: 'lakan-obr' };
const rules = (r: Partial<RouteRules> & { stations?: RouteRules['stations'] } = {}) =>
  new Map<string, RouteRules>([['lakan', { overdueAfterMinutes: 10, stations: new Map(), ...r }]]);

describe('deriveState', () => {
  it('rides the base category’s route: a station of another route is neither required nor next', () => {
    const s = deriveState({
      rider,
      day: 1,
      stations: STATIONS,
      rules: rules(),
      passages: [{ stationId: 'cp1', scannedAt: at(30) }],
      decision: null,
      now: at(60),
    });
    expect(s.route).toBe('lakan');
    expect(s.nextStation?.id).toBe('finish');
    // No start passage: the first passage is the start.
    expect(s.startedAt).toEqual(at(30));
    expect(bucketAt(s, STATIONS[0] as CourseStation)).toBe('missed');
  });

  it('makes a passage after its cutoff a DNF even for a rider who reached the finish', () => {
    const s = deriveState({
      rider,
      day: 1,
      stations: STATIONS,
      rules: rules({
        stations: new Map([
          ['cp1', { stationId: 'cp1', cutoffAt: at(20).toISOString(), required: null, dueMinutes: null }],
        ]),
      }),
      passages: [
        { stationId: 'start', scannedAt: at(0) },
        { stationId: 'cp1', scannedAt: at(25) },
        { stationId: 'finish', scannedAt: at(90) },
      ],
      decision: null,
      now: at(100),
    });
    expect(s).toMatchObject({ state: 'dnf', dnfReason: 'missed_cutoff', dnfStations: [{ id: 'cp1' }] });
  });

  it('keeps a staff decision over whatever the scans say, and clear hands it back', () => {
    const base = {
      rider,
      day: 1,
      stations: STATIONS,
      rules: rules(),
      passages: [{ stationId: 'start', scannedAt: at(0) }],
      now: at(10),
    };
    const dns = deriveState({
      ...base,
      decision: { decision: 'dns', reason: null, note: 'n', decidedAt: at(5), decidedByName: 'X' },
    });
    expect(dns).toMatchObject({ state: 'dns', dnfReason: null, decision: { note: 'n' } });
    const cleared = deriveState({
      ...base,
      decision: { decision: 'clear', reason: null, note: 'n', decidedAt: at(6), decidedByName: 'X' },
    });
    expect(cleared).toMatchObject({ state: 'on_course', decision: null });
  });

  it('is overdue exactly after due + grace, never without a due time', () => {
    const withDue = rules({
      stations: new Map([['cp1', { stationId: 'cp1', cutoffAt: null, required: null, dueMinutes: 60 }]]),
    });
    const input = {
      rider,
      day: 1,
      stations: STATIONS,
      passages: [{ stationId: 'start', scannedAt: at(0) }],
      decision: null,
    };
    expect(deriveState({ ...input, rules: withDue, now: at(70) }).overdue).toBe(false);
    expect(deriveState({ ...input, rules: withDue, now: at(71) })).toMatchObject({ overdue: true, overdueMs: MIN });
    expect(deriveState({ ...input, rules: rules(), now: at(600) }).overdue).toBe(false);
  });
});
