// Demo announcements: two live, one draft.
import type { Tx } from '../../db/client';
import { announcements } from '../../db/schema/announcements';
import { daysAgo } from './seed-demo-helpers';

export async function seedAnnouncements(tx: Tx, adminId: string): Promise<void> {
  await tx.insert(announcements).values([
    {
      title: 'Kit claiming starts Friday',
      content:
        'Claim your rally kit at the Davao City staging area, 9 AM to 6 PM. Bring a valid ID and your rider code.',
      authorId: adminId,
      createdAt: daysAgo(2),
    },
    {
      title: 'Mandatory riders briefing',
      content: 'All warriors must attend the safety briefing on the eve of the flag-off, 7 PM at the staging area.',
      authorId: adminId,
      createdAt: daysAgo(1),
    },
    {
      title: 'Draft: route reveal',
      content: 'Final coordinates will be released once the trail masters finish the last survey.',
      authorId: adminId,
      isActive: false,
      createdAt: daysAgo(0, 5),
    },
  ]);
}
