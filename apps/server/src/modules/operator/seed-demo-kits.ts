// Demo kit hand-overs and sticker prints for verified riders.
import type { Tx } from '../../db/client';
import { idCardPrints, kitTracking } from '../../db/schema/kit';
import { daysAgo } from './seed-demo-helpers';

export async function seedKits(tx: Tx, verified: string[], adminId: string): Promise<void> {
  for (const [i, riderId] of verified.entries()) {
    const given = i % 4;
    await tx.insert(kitTracking).values({
      userId: riderId,
      tshirtGiven: given >= 1,
      tshirtGivenAt: given >= 1 ? daysAgo(3) : null,
      tshirtGivenBy: given >= 1 ? adminId : null,
      vestGiven: given >= 2,
      vestGivenAt: given >= 2 ? daysAgo(2) : null,
      vestGivenBy: given >= 2 ? adminId : null,
      finisherSleeveGiven: given >= 3,
      finisherSleeveGivenAt: given >= 3 ? daysAgo(1) : null,
      finisherSleeveGivenBy: given >= 3 ? adminId : null,
      notes: i % 5 === 0 ? 'Asked for a bigger vest if stock allows' : null,
      updatedBy: adminId,
    });
    if (i % 3 === 0) {
      await tx.insert(idCardPrints).values({ userId: riderId, printedBy: adminId, printedAt: daysAgo(2) });
      if (i % 6 === 0)
        await tx
          .insert(idCardPrints)
          .values({ userId: riderId, printedBy: adminId, printedAt: daysAgo(1), notes: 'Reprint: smudged' });
    }
  }
}
