import { describe, expect, it } from 'vitest';
import { sinceText, waitingText } from './since-text';

const now = Date.parse('2026-12-06T08:00:00Z');
const ago = (ms: number) => new Date(now - ms).toISOString();

describe('sinceText', () => {
  it('reads minutes and hours the way a rider says them', () => {
    expect(sinceText(ago(20_000), now)).toBe('just now');
    expect(sinceText(ago(-5_000), now)).toBe('just now');
    expect(sinceText(ago(3 * 60_000 + 59_000), now)).toBe('3 min ago');
    expect(sinceText(ago(60 * 60_000), now)).toBe('1 h ago');
    expect(sinceText(ago(125 * 60_000), now)).toBe('2 h 5 min ago');
    expect(sinceText(ago(49 * 3_600_000), now)).toBe('2 days ago');
    expect(sinceText('not a time', now)).toBe('');
  });
  it('counts positions waiting', () => {
    expect(waitingText(1)).toBe('1 position waiting for signal');
    expect(waitingText(3)).toBe('3 positions waiting for signal');
  });
});
