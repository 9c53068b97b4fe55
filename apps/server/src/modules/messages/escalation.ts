// The SOS escalation (DESIGN.md §10): an incident nobody acknowledges within
// SOS_ESCALATE_AFTER_S is texted to every on-call phone and the event's hotline (and pushed
// to on-call browsers again), then again each period until someone acknowledges it. It is a
// row per incident (incident_escalations), so it survives restarts, and instances claim due
// rows with FOR UPDATE SKIP LOCKED and a lease, like the outbox: one text per round, however
// many instances run. Due times are on the app's clock (the worker passes `now`), which the
// test clock moves.
import { sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client';
import { incidentEscalations } from '../../db/schema/messages';
import { CURRENT_EDITION } from '../../lib/edition-of';
import { publishEvent } from '../../lib/event-bus';
import { toE164 } from '../../lib/phone-numbers';
import { readEventSettings } from '../settings/settings.service';
import type { Messenger } from './messenger';
import { type IncidentForAlert, incidentAlertData, onCallStaffSql, pushToOnCall } from './notify';
import { enqueueMessages, LEASE_SECONDS, wakeOutboxWorkers } from './outbox';
import type { ScheduledJob } from './outbox-worker';

/** Incidents escalated in one claim; the job claims again until fewer are due. */
const BATCH = 20;

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/**
 * SQL: escalation `e`'s incident is of the current edition. Only this year's incidents ring
 * anyone: a past edition's escalation left behind by a rollover is never claimed.
 */
const ofCurrentEdition = sql`exists (select 1 from incidents i where i.id = e.incident_id and i.edition_id = ${CURRENT_EDITION})`;

/**
 * An incident that opened unacknowledged and unmuted starts its clock (inside the opening
 * transaction). Nothing is kept while neither SMS nor push is on: there is nobody to reach.
 */
export async function scheduleEscalation(
  tx: DbOrTx,
  messenger: Messenger,
  incident: { id: string; status: string; muted: boolean; createdAt: Date },
): Promise<void> {
  if (incident.muted || incident.status !== 'open') return;
  if (!messenger.on.has('sms') && !messenger.on.has('push')) return;
  await tx
    .insert(incidentEscalations)
    .values({
      incidentId: incident.id,
      dueAt: new Date(incident.createdAt.getTime() + messenger.escalateAfterS * 1000),
    })
    .onConflictDoNothing();
  // The workers sleep until their next due time: this one may be sooner.
  await wakeOutboxWorkers(tx);
}

/** Someone has the incident: no more rounds. */
export async function cancelEscalation(tx: DbOrTx, incidentId: string): Promise<void> {
  await tx.execute(sql`delete from ${incidentEscalations} where incident_id = ${incidentId}::uuid`);
}

interface Claimed {
  incident_id: string;
}

interface EscalatedIncident {
  id: string;
  rider_id: string;
  kind: IncidentForAlert['kind'];
  note: string | null;
  status: string;
  muted: boolean;
  last_station_name: string | null;
  created_at: string | Date;
  round: number;
  due_at: string | Date;
  rider_number: number | null;
  kit_name: string | null;
  first_name: string;
  last_name: string;
}

/** One claimed incident: a round of texts and pushes, or the row dropped when it is in hand. */
async function escalate(db: Db, messenger: Messenger, incidentId: string, now: Date): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = rowsOf<EscalatedIncident>(
      await tx.execute(sql`
        select i.id, i.rider_id, i.kind, i.note, i.status, i.muted, i.last_station_name, i.created_at,
          e.round, e.due_at, en.rider_number, u.kit_name, u.first_name, u.last_name
        from ${incidentEscalations} e
        join incidents i on i.id = e.incident_id and i.edition_id = ${CURRENT_EDITION}
        join users u on u.id = i.rider_id
        left join entries en on en.user_id = u.id and en.edition_id = ${CURRENT_EDITION}
        where e.incident_id = ${incidentId}::uuid
        for update of e`),
    );
    // Cancelled meanwhile, or the incident's edition is no longer the current one: no round.
    if (!row) {
      await cancelEscalation(tx, incidentId);
      return;
    }
    if (row.status !== 'open' || row.muted) {
      await cancelEscalation(tx, incidentId);
      return;
    }
    const createdAt = new Date(row.created_at);
    const round = row.round + 1;
    const data = {
      ...incidentAlertData({
        id: row.id,
        kind: row.kind,
        note: row.note,
        muted: row.muted,
        lastStationName: row.last_station_name,
        rider: {
          riderNumber: row.rider_number,
          kitName: row.kit_name,
          firstName: row.first_name,
          lastName: row.last_name,
        },
      }),
      minutes: Math.max(1, Math.round((now.getTime() - createdAt.getTime()) / 60_000)),
      round,
    };
    // Being on call is the choice: the text and the push go out whatever the SMS and push switches say.
    const staff = rowsOf<{ id: string; phone_number: string | null }>(await tx.execute(onCallStaffSql()));
    const phones = new Map<string, string | null>();
    if (messenger.on.has('sms')) {
      for (const s of staff) {
        const phone = toE164(s.phone_number);
        if (phone && !phones.has(phone)) phones.set(phone, s.id);
      }
      const hotline = toE164((await readEventSettings(tx)).hotline);
      if (hotline && !phones.has(hotline)) phones.set(hotline, null);
      await enqueueMessages(
        tx,
        [...phones].map(([address, userId]) => ({
          channel: 'sms' as const,
          template: 'incident_escalated' as const,
          address,
          userId,
          data,
          incidentId,
        })),
      );
    }
    if (messenger.on.has('push') && staff.length > 0) await pushToOnCall(tx, 'incident_escalated', data, incidentId);
    // The next round one period on; a worker that was down long does not fire the missed rounds at once.
    const period = messenger.escalateAfterS * 1000;
    const dueAt = new Date(Math.max(new Date(row.due_at).getTime() + period, now.getTime() + period));
    await tx.execute(sql`
      update ${incidentEscalations} set round = ${round}, due_at = ${dueAt.toISOString()}::timestamptz, locked_until = null
      where incident_id = ${incidentId}::uuid`);
    // Open consoles refetch: the incident's timeline now lists this round's messages.
    await publishEvent(tx, 'incident', {
      incidentId,
      status: row.status,
      riderId: row.rider_id,
      riderNumber: row.rider_number,
      kitName: row.kit_name,
      escalated: round,
    });
  });
}

/**
 * A message of an incident was sent, failed, or will be tried again: the `incident` event
 * makes open consoles refetch, so the timeline shows the step. Sent after the outcome is
 * stored (it is not part of a transaction with it; a lost event only delays the view).
 */
export async function publishMessageStep(db: Db, incidentId: string, step: 'sent' | 'retry' | 'failed') {
  const [row] = rowsOf<{
    status: string;
    rider_id: string;
    rider_number: number | null;
    kit_name: string | null;
    muted: boolean;
  }>(
    await db.execute(sql`
      select i.status, i.rider_id, i.muted, en.rider_number, u.kit_name
      from incidents i join users u on u.id = i.rider_id
        left join entries en on en.user_id = u.id and en.edition_id = ${CURRENT_EDITION}
      where i.id = ${incidentId}::uuid and i.edition_id = ${CURRENT_EDITION}`),
  );
  if (!row) return;
  await publishEvent(db, 'incident', {
    incidentId,
    status: row.status,
    riderId: row.rider_id,
    riderNumber: row.rider_number,
    kitName: row.kit_name,
    ...(row.muted ? { muted: true } : {}),
    message: step,
  });
}

/** Claims the due escalations (a lease on the database's clock, as the outbox's). */
async function claimDue(db: Db, now: Date): Promise<string[]> {
  const claimed = rowsOf<Claimed>(
    await db.execute(sql`
      update ${incidentEscalations} set locked_until = now() + make_interval(secs => ${LEASE_SECONDS})
      where incident_id in (
        select incident_id from ${incidentEscalations} e
        where due_at <= ${now.toISOString()}::timestamptz and (locked_until is null or locked_until <= now())
          and ${ofCurrentEdition}
        order by due_at
        limit ${BATCH}
        for update skip locked
      )
      returning incident_id`),
  );
  return claimed.map((c) => c.incident_id);
}

/**
 * The worker's job: escalates every due incident, and answers when the next one is due (an
 * escalation another instance holds counts from the end of its lease), so the worker
 * sleeps exactly until then.
 */
export function escalationJob(db: Db, messenger: Messenger): ScheduledJob {
  return {
    name: 'sos-escalation',
    async run(now: Date) {
      for (;;) {
        const ids = await claimDue(db, now);
        for (const id of ids) await escalate(db, messenger, id, now);
        if (ids.length < BATCH) break;
      }
      const [next] = rowsOf<{ at: string | Date | null }>(
        await db.execute(
          sql`select min(greatest(due_at, coalesce(locked_until, due_at))) as at from ${incidentEscalations} e
            where ${ofCurrentEdition}`,
        ),
      );
      return next?.at ? new Date(next.at) : null;
    },
  };
}
