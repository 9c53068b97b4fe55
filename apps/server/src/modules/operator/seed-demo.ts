// Fills an empty database with realistic demo data for trying the product: riders in
// every state, staff of every role, fires, comments, announcements, kit hand-overs,
// sticker prints and the activity they would have produced. Each part lives in its
// seed-demo-*.ts file; this one orders them in one transaction.
import { randomBytes } from 'node:crypto';
import type { Db } from '../../db/client';
import { users } from '../../db/schema/users';
import { hashPassword } from '../../lib/passwords';
import { isRider } from '../../lib/riders';
import { seedDemoIncidents } from '../incidents/seed-demo-incidents';
import { ADMIN, FIRST, OTHER_STAFF, seedRiders, seedStaff } from './seed-demo-accounts';
import { seedActivity } from './seed-demo-activity';
import { seedAnnouncements } from './seed-demo-announcements';
import { pick } from './seed-demo-helpers';
import { seedKits } from './seed-demo-kits';
import { seedSocial } from './seed-demo-social';
import { seedEventDay } from './seed-event-day';

export async function seedDemo(db: Db): Promise<string> {
  const existing = await db.select({ id: users.id }).from(users).where(isRider).limit(1);
  if (existing.length > 0) {
    return 'The database already has riders; seed-demo only fills an empty database. Nothing was changed.';
  }
  // One random password for every demo account, printed once: no default password exists.
  const password = `Demo-${randomBytes(6).toString('base64url')}9a`;
  const passwordHash = await hashPassword(password);

  const lines: string[] = [];
  let exampleEmail = '';
  await db.transaction(async (tx) => {
    const admin = await seedStaff(tx, passwordHash, ADMIN);
    lines.push(admin.line);
    for (const staff of OTHER_STAFF) lines.push((await seedStaff(tx, passwordHash, staff)).line);
    const { riders, verified } = await seedRiders(tx, passwordHash, admin.id);
    await seedSocial(tx, verified);
    await seedKits(tx, verified, admin.id);
    await seedAnnouncements(tx, admin.id);
    await seedActivity(tx, riders);
    exampleEmail = pick(riders, 0).email;
  });
  return [
    `Seeded ${FIRST.length} demo riders (verified, pending, rejected), 4 staff accounts, fires, comments, announcements, kits and prints.`,
    'Staff accounts:',
    ...lines,
    `Riders log in as firstname.lastname@demo.rally.ph (e.g. ${exampleEmail}).`,
    `Password for every demo account: ${password}`,
    await seedEventDay(db),
    await seedDemoIncidents(db),
  ].join('\n');
}
