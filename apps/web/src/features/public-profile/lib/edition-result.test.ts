import { describe, expect, it } from 'vitest';
import { editionOutcome, editionResult } from './edition-result';

describe('editionResult', () => {
  it("names a finisher's time as h:mm:ss", () => {
    expect(editionResult({ state: 'finished', elapsedMs: (12 * 3600 + 34 * 60 + 56) * 1000 })).toBe(
      'Finished · 12:34:56',
    );
    expect(editionResult({ state: 'finished', elapsedMs: (30 * 3600 + 5) * 1000 })).toBe('Finished · 30:00:05');
    expect(editionResult({ state: 'finished', elapsedMs: null })).toBe('Finished');
  });

  it('names the other ends in the course words, and a rider who never started as entered', () => {
    expect(editionResult({ state: 'dnf', elapsedMs: null })).toBe('DNF');
    expect(editionResult({ state: 'dns', elapsedMs: null })).toBe('DNS');
    expect(editionResult({ state: 'on_course', elapsedMs: 1000 })).toBe('On course');
    expect(editionResult({ state: 'not_started', elapsedMs: null })).toBe('Entered');
    expect(editionResult({ state: null, elapsedMs: null })).toBe('Entered');
    expect(editionOutcome({ state: 'not_started' })).toBe('entered');
    expect(editionOutcome({ state: 'dnf' })).toBe('dnf');
  });
});
