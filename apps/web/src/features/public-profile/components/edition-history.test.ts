// The profile's editions are drawn by the server (apps/server profile-page routes) from the
// profile's answer alone: rendered outside a browser, with no router, query or session.
import type { ProfileEdition } from '@rally/shared/contracts/editions';
import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { EditionHistory } from './edition-history';

const edition = (over: Partial<ProfileEdition>): ProfileEdition => ({
  editionId: 'e-2026',
  name: 'Mindanao Warriors Endurance Rally',
  year: 2026,
  current: false,
  category: 'lakan',
  riderNumber: 42,
  state: 'finished',
  elapsedMs: (12 * 3600 + 34 * 60 + 56) * 1000,
  finisher: true,
  ...over,
});

describe('EditionHistory', () => {
  it('lists each edition with its year, trial, number, result and finisher badge, newest first', () => {
    const html = renderToStaticMarkup(
      createElement(EditionHistory, {
        gender: 'male',
        editions: [
          edition({}),
          edition({
            editionId: 'e-2025',
            year: 2025,
            name: 'Warriors 2025',
            category: 'lakambini',
            riderNumber: 7,
            state: 'dnf',
            elapsedMs: null,
            finisher: false,
          }),
        ],
      }),
    );
    const text = html.replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ');
    expect(text).toContain('2026 · Mindanao Warriors Endurance Rally');
    expect(text).toContain('LAKAN · 603KM+');
    expect(text).toContain('Rider number #042');
    expect(text).toContain('Finished · 12:34:56');
    expect(text.indexOf('2026')).toBeLessThan(text.indexOf('2025'));
    // A man's lakambini entry reads as magani; a DNF has no finisher badge.
    expect(text).toContain('MAGANI · 300KM+');
    expect(text).toContain('#007');
    expect(text).toContain('DNF');
    expect(html.match(/data-testid="finisher-badge"/g)).toHaveLength(1);
    // Served under the CSP: no style attribute.
    expect(html).not.toMatch(/\sstyle=/);
  });
});
