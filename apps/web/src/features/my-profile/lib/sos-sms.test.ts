// The SMS prefilled when an SOS cannot reach the server: who, what, and where to find them.
import { describe, expect, it } from 'vitest';
import { sosSmsText } from './sos-sms';

describe('sosSmsText', () => {
  it('names the rider, the kind and the position with a map link', () => {
    expect(
      sosSmsText({
        riderNumber: 7,
        name: 'Juan Dela Cruz',
        kind: 'Crash',
        position: { lat: 7.0731234, lng: 125.6128765, accuracy: 12.4 },
      }),
    ).toBe(
      'SOS CRASH: Rider #7 Juan Dela Cruz at 7.07312,125.61288 (±12 m) https://maps.google.com/?q=7.07312,125.61288',
    );
  });

  it('says so when there is no number or no position', () => {
    expect(sosSmsText({ riderNumber: null, name: 'Ana Santos', kind: 'Lost', position: null })).toBe(
      'SOS LOST: Ana Santos position unknown',
    );
  });
});
