import { KNOTS_TO_MS } from '@rally/shared/catalog/tracking';
import { describe, expect, it } from 'vitest';
import { osmandObject, type QueuedPosition, worthRecording } from './position-queue';

const at = (s: number) => new Date(Date.parse('2026-12-06T08:00:00Z') + s * 1000).toISOString();
const fix = (s: number, lat: number, lng: number) => ({ at: at(s), lat, lng });

describe('worthRecording', () => {
  it('keeps one fix a minute while standing, and one per 100 m while moving', () => {
    const first = fix(0, 7.9, 125.1);
    expect(worthRecording(null, first)).toBe(true);
    // 20 s later, 5 m away: not yet.
    expect(worthRecording(first, fix(20, 7.90005, 125.1))).toBe(false);
    // A minute later, still standing: yes.
    expect(worthRecording(first, fix(60, 7.90005, 125.1))).toBe(true);
    // 15 s later but ~111 m north: yes.
    expect(worthRecording(first, fix(15, 7.901, 125.1))).toBe(true);
    // An older fix handed back from a cache: never.
    expect(worthRecording(first, fix(-30, 7.95, 125.1))).toBe(false);
  });
});

describe('osmandObject', () => {
  it('speaks Traccar Client’s JSON form: lon, knots, batt and charge, nothing the phone did not give', () => {
    const p: QueuedPosition = {
      id: 'abc|x',
      trackingId: 'abc',
      at: at(0),
      lat: 7.9,
      lng: 125.1,
      speed: 10,
      bearing: 91.4,
      altitude: null,
      accuracy: 12.6,
      battery: 64,
      charging: false,
    };
    const o = osmandObject(p);
    expect(o).toEqual({
      id: 'abc',
      lat: 7.9,
      lon: 125.1,
      timestamp: at(0),
      speed: 19.44,
      bearing: 91,
      accuracy: 13,
      batt: 64,
      charge: false,
    });
    // Back on the server, knots read as the phone's m/s again (to the rounding).
    expect(Math.abs((o.speed as number) * KNOTS_TO_MS - 10)).toBeLessThan(0.01);
  });
});
