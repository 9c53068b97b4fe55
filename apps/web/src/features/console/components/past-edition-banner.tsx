// Across the console while a past edition is browsed (?edition=ID): which one, that it is
// read-only, and the way back to the current edition.
import type { Edition } from '@rally/shared/contracts/editions';
import { History } from 'lucide-react';
import { buttonStyles } from '../../../components/ui/button-styles';

export function PastEditionBanner({
  edition,
  current,
  onBack,
}: {
  edition: Edition;
  current: Edition | undefined;
  onBack: () => void;
}) {
  return (
    <div
      role="status"
      data-testid="past-edition-banner"
      className="flex flex-wrap items-center justify-between gap-3 border-b-2 border-gold-400 bg-gold-500/15 px-3 py-3 sm:px-5"
    >
      <p className="flex min-w-0 items-center gap-2 font-bold text-gold-300">
        <History className="size-5 shrink-0" aria-hidden="true" />
        <span>
          Viewing {edition.name} ({edition.year}), a past edition: read-only
        </span>
      </p>
      <button type="button" className={buttonStyles('secondary', 'md')} onClick={onBack}>
        Back to {current?.name ?? 'the current edition'}
      </button>
    </div>
  );
}
