// What an account wants to hear by. No row means the defaults: email, push and SMS on, not
// on call (going on call is a staff member's own choice).

import type { NotificationSettings } from '@rally/shared/contracts/messages';
import { can } from '@rally/shared/permissions';
import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { notificationSettings } from '../../db/schema/messages';
import { ForbiddenError } from '../../lib/errors';
import { liveDeviceIds } from './push.service';

export const DEFAULT_NOTIFICATION_SETTINGS: NotificationSettings = {
  email: true,
  push: true,
  sms: true,
  onCall: false,
};

export async function readNotificationSettings(db: DbOrTx, userId: string): Promise<NotificationSettings> {
  const [row] = await db.select().from(notificationSettings).where(eq(notificationSettings.userId, userId));
  return row ? { email: row.email, push: row.push, sms: row.sms, onCall: row.onCall } : DEFAULT_NOTIFICATION_SETTINGS;
}

export async function notificationSettingsView(db: DbOrTx, userId: string, role: string) {
  const [settings, devices] = await Promise.all([readNotificationSettings(db, userId), liveDeviceIds(db, userId)]);
  const canBeOnCall = can(role, 'handle_incidents');
  return { ...settings, onCall: canBeOnCall && settings.onCall, canBeOnCall, pushDevices: devices.length };
}

export async function updateNotificationSettings(
  db: DbOrTx,
  userId: string,
  role: string,
  change: Partial<NotificationSettings>,
) {
  if (change.onCall && !can(role, 'handle_incidents'))
    throw new ForbiddenError('Only staff who handle incidents can go on call', 'NOT_ON_CALL_ROLE');
  const next = { ...(await readNotificationSettings(db, userId)), ...change };
  await db
    .insert(notificationSettings)
    .values({ userId, ...next })
    .onConflictDoUpdate({ target: notificationSettings.userId, set: { ...next, updatedAt: new Date() } });
  return notificationSettingsView(db, userId, role);
}
