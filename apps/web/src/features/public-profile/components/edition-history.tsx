import type { ProfileEdition } from '@rally/shared/contracts/editions';
import { type EditionOutcome, editionOutcome, editionResult } from '../lib/edition-result';
import { CategoryBadge, FinisherBadge, RiderNumberBadge } from './rider-badges';

const OUTCOME_TONES: Record<EditionOutcome, string> = {
  finished: 'text-jade-400',
  dnf: 'text-ember-400',
  dns: 'text-smoke',
  on_course: 'text-fire-300',
  entered: 'text-ash',
};

/**
 * The editions a rider rode, newest first: year and name, trial, number, how it ended and a
 * finisher's badge. Drawn from the profile's answer alone, so the server renders it as is.
 */
export function EditionHistory({ editions, gender }: { editions: ProfileEdition[]; gender: string | null }) {
  return (
    <section
      aria-labelledby="warrior-editions"
      className="rounded-xl border border-ink-700 bg-ink-900 p-4 sm:p-6"
      data-testid="profile-editions"
    >
      <h2 id="warrior-editions" className="text-2xl text-fire-300">
        Editions
      </h2>
      <ol className="mt-4 space-y-3">
        {editions.map((edition) => (
          <li
            key={edition.editionId}
            data-testid="profile-edition"
            className="rounded-lg border border-ink-700 border-l-4 border-l-fire-500 bg-ink-850 p-3 sm:p-4"
          >
            <div className="flex items-start justify-between gap-3">
              <h3 className="min-w-0 text-xl tracking-wide text-bone sm:text-2xl">
                <span className="text-gold-300">{edition.year}</span> · {edition.name}
              </h3>
              <RiderNumberBadge riderNumber={edition.riderNumber} className="shrink-0 text-lg" />
            </div>
            <div className="mt-2 flex flex-wrap items-center gap-x-3 gap-y-2">
              {edition.category && <CategoryBadge category={edition.category} gender={gender} />}
              <span
                className={`font-display text-lg tracking-wide ${OUTCOME_TONES[editionOutcome(edition)]}`}
                data-testid="edition-result"
              >
                {editionResult(edition)}
              </span>
              {edition.finisher && <FinisherBadge />}
            </div>
          </li>
        ))}
      </ol>
    </section>
  );
}
