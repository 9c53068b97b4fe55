// Demo social life among verified riders: fires and support comments.
import type { Tx } from '../../db/client';
import { comments, fires } from '../../db/schema/social';
import { daysAgo, pick } from './seed-demo-helpers';

const COMMENTS = [
  'Ride safe, warrior! See you at the Marilog checkpoint.',
  'Bagani loop is no joke — you got this! 🔥',
  'Salamat for the help with my chain at the last ride.',
  'Let us ride together on the Bukidnon stretch!',
  'Legend. Your setup is clean.',
  'Padayon, kapatid! Mindanao pride!',
  'Hydrate and rest well before the start.',
  'Your first endurance rally? You will love it.',
];
export async function seedSocial(tx: Tx, verified: string[]): Promise<void> {
  for (const [a, giver] of verified.entries()) {
    for (let k = 1; k <= (a % 4) + 1; k++) {
      const receiver = pick(verified, a + k * 3);
      if (receiver === giver) continue;
      await tx
        .insert(fires)
        .values({ giverId: giver, receiverId: receiver, createdAt: daysAgo(k, a) })
        .onConflictDoNothing();
    }
    const target = pick(verified, a + 1);
    if (target !== giver) {
      await tx.insert(comments).values({
        authorId: giver,
        targetUserId: target,
        text: pick(COMMENTS, a),
        createdAt: daysAgo(a % 9, a),
      });
    }
  }
}
