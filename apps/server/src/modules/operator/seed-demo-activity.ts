// Demo live-feed activity beyond what registration and verification logged: an SOS call
// and a checkpoint scan.
import type { Tx } from '../../db/client';
import { recordActivities } from '../activities/activities.service';
import type { SeededRider } from './seed-demo-accounts';
import { daysAgo, pick } from './seed-demo-helpers';

export async function seedActivity(tx: Tx, riders: SeededRider[]): Promise<void> {
  const sos = pick(riders, 2);
  const scanned = pick(riders, 0);
  await recordActivities(tx, [
    {
      type: 'sos_call',
      priority: 'high',
      userId: sos.id,
      userName: sos.name,
      description: 'SOS: flat tyre near Marilog, rider safe',
      location: 'Marilog',
      createdAt: daysAgo(0, 3),
    },
    {
      type: 'checkpoint_scan',
      priority: 'low',
      userId: scanned.id,
      userName: scanned.name,
      description: 'Scanned at Calinan checkpoint',
      location: 'Calinan',
      createdAt: daysAgo(0, 2),
    },
  ]);
}
