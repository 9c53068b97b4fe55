// The device's own verdict: every flag a single phone can know about, from the roster and
// its own scans, and the cooldown that keeps a held sticker from being recorded 30 times.
import type { RosterRider } from '@rally/shared/contracts/scans';
import type { Station } from '@rally/shared/contracts/stations';
import { describe, expect, it } from 'vitest';
import { findRider, indexRoster, localVerdict, SCAN_COOLDOWN_MS, withinCooldown } from './local-verdict';
import { parseQrText, parseTypedNumber } from './rider-token';

const rider = (over: Partial<RosterRider> = {}): RosterRider => ({
  id: 'r1',
  riderCode: 'RC-0123456789AB',
  riderNumber: 42,
  firstName: 'Datu',
  lastName: 'Bagani',
  kitName: 'Tigre',
  category: 'lakan',
  route: 'lakan',
  status: 'verified',
  photoUrl: null,
  ...over,
});
const station = (over: Partial<Station> = {}): Station => ({
  id: 's2',
  name: 'CP 2',
  code: 'CP2',
  kind: 'checkpoint',
  day: 1,
  routes: [],
  order: 2,
  lat: null,
  lng: null,
  opensAt: null,
  closesAt: null,
  required: false,
  closed: false,
  scanCount: 0,
  ...over,
});
const later = station({ id: 's3', order: 3 });
const stations = [station({ id: 's1', order: 1 }), station(), later, station({ id: 'd2', day: 2, order: 9 })];
const now = Date.parse('2026-12-01T08:00:00Z');
const base = { station: station(), stations, history: [], now };

describe('localVerdict', () => {
  it('accepts a verified rider on the route at an open station', () => {
    expect(localVerdict({ ...base, rider: rider() }).tone).toBe('accepted');
  });
  it('is red for a rider not on the roster', () => {
    expect(localVerdict({ ...base, rider: undefined })).toEqual({ tone: 'unknown', reason: 'unknown_rider' });
  });
  it.each([
    ['not_verified', { rider: rider({ status: 'pending' }) }],
    ['wrong_route', { rider: rider(), station: station({ routes: ['bagani'] }) }],
    ['before_opening', { rider: rider(), station: station({ opensAt: '2026-12-01T09:00:00Z' }) }],
    ['after_closing', { rider: rider(), station: station({ closesAt: '2026-12-01T07:00:00Z' }) }],
    ['rescan', { rider: rider(), history: [{ key: 'r1', stationId: 's2', at: now - 60_000 }] }],
    ['out_of_order', { rider: rider(), history: [{ key: 'r1', stationId: 's3', at: now - 60_000 }] }],
  ] as const)('flags %s', (reason, over) => {
    expect(localVerdict({ ...base, ...over })).toMatchObject({ tone: 'flagged', reason });
  });
  it('a later station of another day is not out of order', () => {
    const verdict = localVerdict({ ...base, rider: rider(), history: [{ key: 'r1', stationId: 'd2', at: now - 1 }] });
    expect(verdict.tone).toBe('accepted');
  });
  it('a station on the rider route accepts', () => {
    expect(localVerdict({ ...base, rider: rider(), station: station({ routes: ['lakan', 'bagani'] }) }).tone).toBe(
      'accepted',
    );
  });
});

describe('cooldown', () => {
  const history = [{ key: 'r1', stationId: 's2', at: now - 3_000 }];
  it('the same rider at the same station within the window is the same scan', () => {
    expect(withinCooldown(history, 's2', now)).toEqual(history[0]);
  });
  it('not after the window, nor at another station', () => {
    expect(withinCooldown(history, 's2', now + SCAN_COOLDOWN_MS)).toBeUndefined();
    expect(withinCooldown(history, 's1', now)).toBeUndefined();
  });
});

describe('rider tokens', () => {
  const index = indexRoster([rider()]);
  it('reads the bare rider code the QR holds, in any case and inside a URL', () => {
    expect(parseQrText(' RC-0123456789AB ')).toEqual({ riderCode: 'RC-0123456789AB' });
    expect(parseQrText('https://x.example/r/rc-0123456789ab')).toEqual({ riderCode: 'RC-0123456789AB' });
    expect(parseQrText('')).toBeNull();
  });
  it('keeps unrecognised text, for the server to flag', () => {
    expect(parseQrText('hello')).toEqual({ riderCode: 'hello' });
  });
  it('reads typed numbers and refuses anything else', () => {
    expect(parseTypedNumber(' #42 ')).toEqual({ riderNumber: 42 });
    expect(parseTypedNumber('4a')).toBeNull();
    expect(parseTypedNumber('')).toBeNull();
  });
  it('finds riders by code and by number', () => {
    expect(findRider(index, { riderCode: 'rc-0123456789ab' })?.id).toBe('r1');
    expect(findRider(index, { riderNumber: 42 })?.id).toBe('r1');
    expect(findRider(index, { riderNumber: 7 })).toBeUndefined();
  });
});
