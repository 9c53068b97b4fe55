// The receipt as read and checked, beside the image at the desk: its flags, whether a
// payment statement holds it, and what was read (which staff may correct).
import type { PendingVerification } from '@rally/shared/contracts/verifications';
import { usePastEdition } from '../../components/past-edition-context';
import { ReadingPanel } from './reading-panel';
import { FlagList, InStatementBadge } from './receipt-flags';

/** The receipt as read and checked: its flags first, then what was read, beside the image. */
export function ReceiptCheckPanel({
  entry,
  flagsInConfirmation,
}: {
  entry: PendingVerification;
  /** The approval's confirmation lists them already: once on screen is enough. */
  flagsInConfirmation: boolean;
}) {
  const past = usePastEdition() !== null;
  const check = entry.receipt_check;
  if (!check) return null;
  return (
    <>
      {!flagsInConfirmation && <FlagList flags={check.flags} />}
      {check.inStatement && (
        <div>
          <InStatementBadge check={check} />
        </div>
      )}
      <ReadingPanel key={entry.id} verificationId={entry.id} check={check} canEdit={!past} />
    </>
  );
}
