// How a rider's edition ended, as their public profile lists it (DESIGN.md §9). Pure, so the
// server draws the profile with the very words the browser then hydrates.
import { COURSE_STATE_LABELS } from '@rally/shared/catalog/event-day';
import type { ProfileEdition } from '@rally/shared/contracts/editions';
import { formatElapsed } from '../../live/lib/live-format';

export type EditionOutcome = 'finished' | 'dnf' | 'dns' | 'on_course' | 'entered';

/** The state as the profile groups it: before the rally's day (or none recorded) the rider had entered. */
export function editionOutcome(edition: Pick<ProfileEdition, 'state'>): EditionOutcome {
  const { state } = edition;
  return state === null || state === 'not_started' ? 'entered' : state;
}

/** "Finished · 12:34:56", "DNF", "DNS", "On course" or "Entered". */
export function editionResult(edition: Pick<ProfileEdition, 'state' | 'elapsedMs'>): string {
  const outcome = editionOutcome(edition);
  if (outcome === 'entered') return 'Entered';
  if (outcome === 'finished' && edition.elapsedMs !== null) return `Finished · ${formatElapsed(edition.elapsedMs)}`;
  return COURSE_STATE_LABELS[outcome];
}
