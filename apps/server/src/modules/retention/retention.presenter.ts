import { RETENTION_DEFAULTS, RETENTION_KIND_LABELS, RETENTION_KINDS } from '@rally/shared/catalog/privacy';
import type { Retention } from '@rally/shared/contracts/retention';
import type { EditionRow } from '../../db/schema/editions';
import { goesOn, retentionDaysOf, retentionHeld, type SweepRow } from './retention.service';

export function presentRetention(edition: EditionRow, sweeps: SweepRow[], now: Date): Retention {
  const days = retentionDaysOf(edition);
  return {
    editionId: edition.id,
    endsOn: edition.endsOn,
    heldOpen: retentionHeld(edition, now),
    kinds: RETENTION_KINDS.map((kind) => {
      const swept = sweeps.find((s) => s.kind === kind);
      return {
        kind,
        label: RETENTION_KIND_LABELS[kind],
        days: days[kind].days,
        isDefault: days[kind].isDefault,
        defaultDays: RETENTION_DEFAULTS[kind],
        goesOn: goesOn(edition.endsOn, days[kind].days)?.toISOString() ?? null,
        wentAt: swept?.ranAt.toISOString() ?? null,
        rows: swept?.rows ?? null,
      };
    }),
  };
}
