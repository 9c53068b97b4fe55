import { NO_SIGNAL_AFTER_MS } from '@rally/shared/catalog/tracking';
import { describe, expect, it } from 'vitest';
import { batteryText, distanceText, riderTag, shownState, speedText } from './tracking-display';

const now = Date.parse('2026-12-06T08:00:00Z');
const point = (agoMs: number) => ({
  lat: 7,
  lng: 125,
  at: new Date(now - agoMs).toISOString(),
  speed: null,
  accuracy: null,
  battery: 15,
  charging: false,
});

describe('tracking display', () => {
  it('shows a rider whose phone went quiet as no signal, but never a finished or DNF one', () => {
    expect(shownState({ state: 'moving', last: point(60_000) }, now)).toBe('moving');
    expect(shownState({ state: 'stopped', last: point(NO_SIGNAL_AFTER_MS + 1) }, now)).toBe('no_signal');
    expect(shownState({ state: 'finished', last: point(NO_SIGNAL_AFTER_MS * 10) }, now)).toBe('finished');
    expect(shownState({ state: 'dnf', last: point(NO_SIGNAL_AFTER_MS * 10) }, now)).toBe('dnf');
  });
  it('reads speed, distance and battery in the units marshals say', () => {
    expect(speedText(10)).toBe('36 km/h');
    expect(speedText(null)).toBeNull();
    expect(distanceText(420)).toBe('420 m');
    expect(distanceText(4_250)).toBe('4.3 km');
    expect(distanceText(123_456)).toBe('123 km');
    expect(batteryText({ last: point(0), lowBattery: true })).toBe('15% (low)');
    expect(riderTag({ riderNumber: 7 })).toBe('#007');
  });
});
