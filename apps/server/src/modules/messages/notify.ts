// Who hears what (DESIGN.md §10). Each function writes outbox rows inside the caller's
// transaction, so a message exists exactly when its event does; a channel that is off
// (messenger.on) gets no rows, and neither does an address nobody gave.
import { INCIDENT_KIND_LABELS, type IncidentKind } from '@rally/shared/catalog/event-day';
import type { MessageChannel, MessageTemplate } from '@rally/shared/catalog/messages';
import { PERMISSIONS } from '@rally/shared/permissions';
import { eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { outboxMessages, pushSubscriptions } from '../../db/schema/messages';
import { sessions } from '../../db/schema/sessions';
import { users } from '../../db/schema/users';
import { toE164 } from '../../lib/phone-numbers';
import { consentInEffectSql } from '../privacy/consents.service';
import type { Messenger } from './messenger';
import { readNotificationSettings } from './notification-settings.service';
import { enqueueMessages, type NewMessage, wakeOutboxWorkers } from './outbox';
import { liveDeviceIds, liveDeviceSession } from './push.service';

/**
 * One account's message, by every channel that is on, that the account chose, and for which
 * it gave an address: its email, its phone in E.164, each of its push subscriptions.
 */
export async function notifyUser(
  tx: DbOrTx,
  messenger: Messenger,
  userId: string,
  template: MessageTemplate,
  data: Record<string, unknown>,
  opts: { incidentId?: string | null; channels?: readonly MessageChannel[] } = {},
): Promise<number> {
  const wanted = (opts.channels ?? (['email', 'push', 'sms'] as const)).filter((c) => messenger.on.has(c));
  if (wanted.length === 0) return 0;
  const settings = await readNotificationSettings(tx, userId);
  const chosen = wanted.filter((c) => settings[c]);
  if (chosen.length === 0) return 0;
  const [user] = await tx
    .select({ email: users.email, phoneNumber: users.phoneNumber })
    .from(users)
    .where(eq(users.id, userId));
  if (!user) return 0;
  const base = { template, data, userId, incidentId: opts.incidentId ?? null };
  const rows: NewMessage[] = [];
  if (chosen.includes('email') && user.email) rows.push({ ...base, channel: 'email', address: user.email });
  const phone = chosen.includes('sms') ? toE164(user.phoneNumber) : null;
  if (phone) rows.push({ ...base, channel: 'sms', address: phone });
  if (chosen.includes('push')) {
    // Only browsers still signed in as the account: a shared phone signed out hears nothing of it.
    for (const id of await liveDeviceIds(tx, userId)) rows.push({ ...base, channel: 'push', address: id });
  }
  return (await enqueueMessages(tx, rows)).length;
}

/** The roles that handle incidents, as a SQL list (only they can be on call). */
const onCallRoles = () =>
  sql.join(
    PERMISSIONS.handle_incidents.map((r) => sql`${r}`),
    sql`, `,
  );

/** An on-call staff member: holds handle_incidents, active, and switched on call on. */
export const onCallStaffSql = () => sql`
  select u.id, u.phone_number from users u
  join notification_settings ns on ns.user_id = u.id and ns.on_call
  where u.role in (${onCallRoles()}) and u.status = 'active'`;

export interface IncidentForAlert {
  id: string;
  kind: IncidentKind;
  note: string | null;
  muted: boolean;
  lastStationName: string | null;
  rider: { riderNumber: number | null; kitName: string | null; firstName: string; lastName: string };
}

/** What on-call alerts say about an incident: who, what, where last seen; the rider's note for staff. */
export function incidentAlertData(incident: IncidentForAlert): Record<string, unknown> {
  return {
    incidentId: incident.id,
    riderNumber: incident.rider.riderNumber,
    kitName: incident.rider.kitName,
    riderName: `${incident.rider.firstName} ${incident.rider.lastName}`.trim(),
    kindLabel: INCIDENT_KIND_LABELS[incident.kind],
    lastStation: incident.lastStationName,
    ...(incident.note ? { note: incident.note } : {}),
  };
}

/**
 * A new incident, to every on-call staff member's browsers still signed in as them (the rider's
 * name and medical note are for staff only, not a signed-out tablet's next holder), at once. Being on call is the
 * choice for incidents: it does not also depend on the push switch. A muted incident (an
 * account marked as abuse) raises nothing. One insert … select, whatever the staff count.
 */
export async function notifyOnCall(tx: DbOrTx, messenger: Messenger, incident: IncidentForAlert): Promise<number> {
  if (incident.muted || !messenger.on.has('push')) return 0;
  return pushToOnCall(tx, 'incident_opened', incidentAlertData(incident), incident.id);
}

/**
 * Queues `template` for every browser of every on-call staff member still signed in as them,
 * and wakes the workers; answers how many. One insert … select, whatever the staff count: the
 * new incident's alert and each escalation round.
 */
export async function pushToOnCall(
  tx: DbOrTx,
  template: Extract<MessageTemplate, 'incident_opened' | 'incident_escalated'>,
  data: Record<string, unknown>,
  incidentId: string,
): Promise<number> {
  const result = await tx.execute(sql`
    insert into ${outboxMessages} (channel, template, user_id, address, data, incident_id)
    select 'push'::message_channel, ${template}, staff.id, ${pushSubscriptions.id}::text, ${JSON.stringify(data)}::jsonb, ${incidentId}::uuid
    from (${onCallStaffSql()}) staff
    join ${pushSubscriptions} on ${pushSubscriptions.userId} = staff.id
    join ${sessions} on ${liveDeviceSession()}
    returning id`);
  const written = (result as unknown as { rows: unknown[] }).rows.length;
  if (written > 0) await wakeOutboxWorkers(tx);
  return written;
}

/**
 * Passages, finishes and the rider being out, to the riders' confirmed followers: by email
 * or by the follower's push subscription. `dataByRider` holds each rider's values (never a
 * position, a note or an incident). One insert … select: cheap at thousands of followers.
 */
export async function notifyFollowers(
  tx: DbOrTx,
  messenger: Messenger,
  riderIds: readonly string[],
  template: Extract<MessageTemplate, 'follower_passage' | 'follower_finish' | 'follower_out'>,
  dataByRider: ReadonlyMap<string, Record<string, unknown>>,
): Promise<number> {
  const email = messenger.on.has('email');
  const push = messenger.on.has('push');
  const ids = riderIds.filter((id) => dataByRider.has(id));
  if ((!email && !push) || ids.length === 0) return 0;
  // One JSON parameter (rider id -> data), whatever the count: both drivers pass it alike.
  const byRider = JSON.stringify(Object.fromEntries(ids.map((id) => [id, dataByRider.get(id)])));
  const result = await tx.execute(sql`
    insert into ${outboxMessages} (channel, template, follower_id, address, data)
    select
      (case when f.email is not null then 'email' else 'push' end)::message_channel,
      ${template}, f.id, coalesce(f.email, f.push_subscription_id::text), (${byRider}::jsonb) -> (f.rider_id::text)
    from followers f
    where f.rider_id in (select k::uuid from jsonb_object_keys(${byRider}::jsonb) as k)
      and f.confirmed_at is not null
      -- A rider who withdrew the followers consent: their followers hear nothing more.
      and ${consentInEffectSql(sql`f.rider_id`, 'followers')}
      and ((f.email is not null and ${email}) or (f.email is null and f.push_subscription_id is not null and ${push}))
    returning id`);
  const written = (result as unknown as { rows: unknown[] }).rows.length;
  if (written > 0) await wakeOutboxWorkers(tx);
  return written;
}
