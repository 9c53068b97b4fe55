import { randomUUID } from 'node:crypto';
import {
  type Incident,
  type IncidentEvent,
  SOS_CALLS_PER_HOUR,
  SOS_NEW_INCIDENTS_PER_HOUR,
} from '@rally/shared/contracts/incidents';
import { and, eq, ne } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { openDatabase } from '../../db/client';
import { activities } from '../../db/schema/activities';
import { entries } from '../../db/schema/entries';
import { incidents, sosCalls } from '../../db/schema/incidents';
import { users } from '../../db/schema/users';
import { publishEvent } from '../../lib/event-bus';
import { buildTestApp, DB_KINDS, type TestApp, useTestApp } from '../../test/build-app';
import { type Actor, approvedRider, bearer, injectAs, registerRider, staff, syncScan } from '../../test/factories';
import { openSse, waitLive } from '../../test/sse-client';

describe.each(DB_KINDS)('incidents (%s)', (kind) => {
  const t = useTestApp(kind, 'admin', 'marshall', 'officer', 'developer');
  const { admin, marshall, officer, developer } = t.staff;
  let stationId: string;

  const call = (actor: Actor | null, method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
    injectAs(t.app, actor, method, url, payload);

  const position = { lat: 7.07312, lng: 125.61234, accuracy: 18, at: '2026-11-25T02:40:00.000Z' };

  async function sos(who: Actor, body: Record<string, unknown> = {}) {
    return call(who, 'POST', '/api/my/sos', { id: randomUUID(), kind: 'crash', ...body });
  }

  const listOf = async (who: Actor, query = '') => {
    const res = await call(who, 'GET', `/api/admin/incidents${query}`);
    expect(res.statusCode, res.body).toBe(200);
    return res.json() as { data: Incident[]; nextBefore: string | null };
  };

  /** A verified rider of this test alone, with medical notes, last seen at the test station. */
  async function riderAtStation() {
    const rider = await approvedRider(t.app, admin);
    await t.database.db
      .update(users)
      .set({ bloodType: 'O+', allergies: 'Penicillin', medicalConditions: 'Asthma' })
      .where(eq(users.id, rider.userId));
    const [row] = await t.database.db
      .select({ code: entries.riderCode })
      .from(entries)
      .where(eq(entries.userId, rider.userId));
    const scan = await syncScan(t.app, marshall, { stationId, riderCode: row?.code, deviceId: 'phone-A' });
    expect(scan.status).toBe('accepted');
    return rider;
  }

  /**
   * The incident events published for one rider while `during` runs. Events arrive in the
   * order their writes committed, so once a marker published after `during` is in, so is
   * every event `during` caused.
   */
  async function eventsFor(riderId: string, during: () => Promise<void>): Promise<IncidentEvent[]> {
    await expect.poll(() => t.app.eventBus.isLive).toBe(true);
    const seen: IncidentEvent[] = [];
    // Two markers bound what is counted: the database delivers its notifications in order,
    // so an event of an earlier step that arrives late (a busy machine) comes before the
    // first marker and is not taken for one of `during`'s.
    const first = randomUUID();
    const marker = randomUUID();
    let started = false;
    let arrived = false;
    const stop = t.app.eventBus.subscribe((e) => {
      if (e.type !== 'incident') return;
      if (e.data.marker === first) started = true;
      else if (e.data.marker === marker) arrived = true;
      else if (started && e.data.riderId === riderId) seen.push(e.data as unknown as IncidentEvent);
    });
    try {
      await publishEvent(t.database.db, 'incident', { marker: first });
      await expect.poll(() => started, { timeout: 10_000 }).toBe(true);
      await during();
      await publishEvent(t.database.db, 'incident', { marker });
      await expect.poll(() => arrived, { timeout: 10_000 }).toBe(true);
    } finally {
      stop();
    }
    return seen;
  }

  beforeAll(async () => {
    const st = await call(admin, 'POST', '/api/admin/stations', { name: 'Checkpoint Bukidnon', kind: 'checkpoint' });
    stationId = st.json().data.id;
  });

  it('opens one incident per SOS id: 201 first, 200 with the same incident on a re-send', async () => {
    const rider = await riderAtStation();
    const id = randomUUID();
    const body = { id, kind: 'medical', note: 'Chest pain near the bridge', position };
    const first = await call(rider, 'POST', '/api/my/sos', body);
    expect(first.statusCode, first.body).toBe(201);
    expect(first.json().data.incident).toEqual({ id, status: 'open' });
    const again = await call(rider, 'POST', '/api/my/sos', body);
    expect(again.statusCode, again.body).toBe(200);
    expect(again.json().data.incident).toEqual({ id, status: 'open' });

    const rows = await t.database.db.select().from(incidents).where(eq(incidents.id, id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      lat: position.lat,
      lng: position.lng,
      accuracy: 18,
      lastStationName: 'Checkpoint Bukidnon',
      callCount: 1,
      muted: false,
    });
    // The spec's sos_call activity: high priority, with a location; written once.
    const calls = await t.database.db
      .select()
      .from(activities)
      .where(and(eq(activities.type, 'sos_call'), eq(activities.userId, rider.userId)));
    expect(calls).toHaveLength(1);
    expect(calls[0]?.priority).toBe('high');
    expect(calls[0]?.location).toContain('7.07312, 125.61234');
    expect(calls[0]?.details).toContain('last seen at Checkpoint Bukidnon');
  });

  it('refuses an SOS id another account used, and bad bodies with the field named', async () => {
    const rider = await registerRider(t.app);
    const id = randomUUID();
    expect((await call(rider, 'POST', '/api/my/sos', { id, kind: 'lost' })).statusCode).toBe(201);
    const joinedId = randomUUID();
    expect((await call(rider, 'POST', '/api/my/sos', { id: joinedId, kind: 'lost' })).statusCode).toBe(200);
    const other = await registerRider(t.app);
    for (const taken of [id, joinedId]) {
      const stolen = await call(other, 'POST', '/api/my/sos', { id: taken, kind: 'lost' });
      expect(stolen.statusCode).toBe(409);
      expect(stolen.json().code).toBe('SOS_ID_TAKEN');
    }
    const badKind = await sos(rider, { kind: 'bored' });
    expect(badKind.statusCode).toBe(400);
    expect(badKind.json().message).toMatch(/^kind must be one of/);
    const badId = await call(rider, 'POST', '/api/my/sos', { id: 'not-a-uuid', kind: 'crash' });
    expect(badId.json().message).toBe('id must be a UUID made on the device');
    const badPos = await sos(rider, { position: { ...position, lat: 200 } });
    expect(badPos.statusCode).toBe(400);
    expect((await call(null, 'POST', '/api/my/sos', { id: randomUUID(), kind: 'crash' })).statusCode).toBe(401);
  });

  it('600 SOS from one self-registered account hide no other rider’s open call and ring the alarm once', async () => {
    // Another rider's genuine call, older than the flood.
    const genuine = await registerRider(t.app);
    const genuineId = randomUUID();
    expect((await sos(genuine, { id: genuineId, kind: 'medical' })).statusCode).toBe(201);

    const flooder = await registerRider(t.app);
    const answers = new Map<number, number>();
    const events = await eventsFor(flooder.userId, async () => {
      for (let i = 0; i < 600; i++) {
        const res = await sos(flooder, { note: `junk ${i}` });
        answers.set(res.statusCode, (answers.get(res.statusCode) ?? 0) + 1);
      }
    });
    // The genuine call is still on the staff list, and the flood is one incident on it.
    const open = (await listOf(officer, '?status=open')).data;
    expect(open.map((i) => i.id)).toContain(genuineId);
    const floods = open.filter((i) => i.rider.id === flooder.userId);
    expect(floods).toHaveLength(1);
    // One alarm: every event names the one incident, and there are no more than the presses let in.
    expect(events.every((e) => e.muted === undefined)).toBe(true);
    expect(new Set(events.map((e) => e.incidentId))).toEqual(new Set([floods[0]?.id]));
    expect(events.length).toBeLessThanOrEqual(SOS_CALLS_PER_HOUR);
    // The presses the hour allows joined it; the rest were refused, for the phone to keep.
    expect(floods[0]?.callCount).toBe(SOS_CALLS_PER_HOUR);
    expect(Object.fromEntries(answers)).toEqual({
      201: 1,
      200: SOS_CALLS_PER_HOUR - 1,
      429: 600 - SOS_CALLS_PER_HOUR,
    });
    const stored = await t.database.db.select().from(incidents).where(eq(incidents.riderId, flooder.userId));
    expect(stored).toHaveLength(1);
  });

  it('joins a rider’s further presses to their unresolved incident: one incident, nothing they wrote lost', async () => {
    const rider = await riderAtStation();
    const firstId = randomUUID();
    expect((await sos(rider, { id: firstId, kind: 'mechanical', note: 'Chain snapped' })).statusCode).toBe(201);
    expect((await call(marshall, 'POST', `/api/admin/incidents/${firstId}/acknowledge`)).statusCode).toBe(200);

    const secondId = randomUUID();
    const later = { ...position, lat: 7.2, at: '2026-11-25T03:10:00.000Z' };
    let second: Awaited<ReturnType<typeof sos>> | undefined;
    const events = await eventsFor(rider.userId, async () => {
      second = await sos(rider, { id: secondId, kind: 'medical', note: 'Now my arm hurts', position: later });
    });
    expect(second?.statusCode, second?.body).toBe(200);
    expect(second?.json().data).toEqual({ incident: { id: firstId, status: 'acknowledged' }, joined: true });
    // No new alarm: the board hears of the new position, the incident stays acknowledged.
    expect(events).toEqual([
      expect.objectContaining({ incidentId: firstId, status: 'acknowledged', riderId: rider.userId }),
    ]);

    const listed = (await listOf(marshall)).data.find((i) => i.id === firstId);
    expect(listed).toMatchObject({
      kind: 'mechanical',
      note: 'Chain snapped',
      status: 'acknowledged',
      callCount: 2,
      position: { lat: 7.2, lng: position.lng },
      followUps: [{ id: secondId, kind: 'medical', note: 'Now my arm hurts', position: { lat: 7.2 } }],
    });
    const log = await t.database.db
      .select()
      .from(activities)
      .where(and(eq(activities.type, 'sos_call'), eq(activities.userId, rider.userId)));
    expect(log.find((a) => (a.metadata as { callId?: string }).callId === secondId)?.details).toContain(
      'Now my arm hurts',
    );

    // A re-send of the joined call counts nothing twice, even once the incident is resolved.
    expect((await sos(rider, { id: secondId, kind: 'medical' })).json().data.incident.id).toBe(firstId);
    await call(marshall, 'POST', `/api/admin/incidents/${firstId}/resolve`, { note: 'Towed to the next town' });
    const resent = await sos(rider, { id: secondId, kind: 'medical' });
    expect(resent.statusCode).toBe(200);
    expect(resent.json().data.incident).toEqual({ id: firstId, status: 'resolved' });
    const [row] = await t.database.db.select().from(incidents).where(eq(incidents.id, firstId));
    expect(row?.callCount).toBe(2);
    expect(await t.database.db.select().from(sosCalls).where(eq(sosCalls.incidentId, firstId))).toHaveLength(1);

    // Once resolved, a new press is a new incident.
    const third = await sos(rider, { kind: 'lost' });
    expect(third.statusCode).toBe(201);
    expect(third.json().data.incident.id).not.toBe(firstId);
  });

  it('opens a handful of incidents per account an hour, then answers 429 naming the hotline', async () => {
    const saved = await call(admin, 'PUT', '/api/admin/settings/event', {
      name: 'Mindanao Warriors 2026',
      startsOn: null,
      endsOn: null,
      hotline: '+63 917 555 0101',
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const rider = await registerRider(t.app);
    for (let i = 0; i < SOS_NEW_INCIDENTS_PER_HOUR; i++) {
      const res = await sos(rider);
      expect(res.statusCode, res.body).toBe(201);
      const id = res.json().data.incident.id;
      expect(
        (await call(marshall, 'POST', `/api/admin/incidents/${id}/resolve`, { note: 'Pocket press' })).statusCode,
      ).toBe(200);
    }
    const id = randomUUID();
    const refused = await sos(rider, { id });
    expect(refused.statusCode, refused.body).toBe(429);
    expect(refused.json()).toMatchObject({ success: false, code: 'SOS_LIMIT' });
    expect(refused.json().message).toContain('call the event hotline +63 917 555 0101');
    expect(await t.database.db.select().from(incidents).where(eq(incidents.id, id))).toEqual([]);
    // Another rider is not held back by it.
    expect((await sos(await registerRider(t.app))).statusCode).toBe(201);
  });

  it('moves open → acknowledged → assigned → resolved, and the rider sees who and when', async () => {
    const rider = await riderAtStation();
    const id = randomUUID();
    await call(rider, 'POST', '/api/my/sos', { id, kind: 'mechanical', position });
    const ack = await call(marshall, 'POST', `/api/admin/incidents/${id}/acknowledge`);
    expect(ack.statusCode, ack.body).toBe(200);
    expect(ack.json().data).toMatchObject({
      status: 'acknowledged',
      acknowledgedBy: { id: marshall.userId, role: 'marshall' },
    });
    // A second marshal learns who was first.
    const twice = await call(admin, 'POST', `/api/admin/incidents/${id}/acknowledge`);
    expect(twice.statusCode).toBe(409);
    expect(twice.json().message).toMatch(/^Already acknowledged by /);

    const mine = await call(rider, 'GET', '/api/my/incidents');
    const seen = mine.json().data.find((i: { id: string }) => i.id === id);
    expect(seen).toMatchObject({ status: 'acknowledged', acknowledgedByRole: 'marshall' });
    expect(seen.acknowledgedBy).toBeTruthy();
    expect(seen.acknowledgedAt).toBeTruthy();
    // The rider's view names the staff member, never their id or the rider's contact data.
    expect(JSON.stringify(seen)).not.toContain(marshall.userId);

    const toOfficer = await call(admin, 'POST', `/api/admin/incidents/${id}/assign`, { userId: officer.userId });
    expect(toOfficer.statusCode).toBe(400);
    expect(toOfficer.json().code).toBe('ASSIGNEE_INVALID');
    const assign = await call(admin, 'POST', `/api/admin/incidents/${id}/assign`, { userId: marshall.userId });
    expect(assign.statusCode, assign.body).toBe(200);
    expect(assign.json().data).toMatchObject({ status: 'assigned', assignedTo: { id: marshall.userId } });

    const noNote = await call(marshall, 'POST', `/api/admin/incidents/${id}/resolve`, {});
    expect(noNote.statusCode).toBe(400);
    expect(noNote.json().message).toBe('note is required to resolve an incident');
    const blank = await call(marshall, 'POST', `/api/admin/incidents/${id}/resolve`, { note: '   ' });
    expect(blank.json().message).toBe('note is required to resolve an incident');
    const resolve = await call(marshall, 'POST', `/api/admin/incidents/${id}/resolve`, {
      note: 'Chain fixed, riding on',
    });
    expect(resolve.statusCode, resolve.body).toBe(200);
    expect(resolve.json().data).toMatchObject({ status: 'resolved', resolutionNote: 'Chain fixed, riding on' });
    const after = await call(marshall, 'POST', `/api/admin/incidents/${id}/resolve`, { note: 'again' });
    expect(after.statusCode).toBe(409);
    expect(
      (await call(marshall, 'POST', `/api/admin/incidents/${id}/assign`, { userId: marshall.userId })).statusCode,
    ).toBe(409);

    const log = await t.database.db.select().from(activities).where(eq(activities.type, 'incident_updated'));
    const entries = log.filter((a) => (a.metadata as { incidentId?: string }).incidentId === id);
    expect(entries.map((e) => (e.metadata as { status: string }).status)).toEqual([
      'acknowledged',
      'assigned',
      'resolved',
    ]);
  });

  it('resolves straight from open with a note; an unknown incident is 404', async () => {
    const rider = await registerRider(t.app);
    const id = randomUUID();
    await call(rider, 'POST', '/api/my/sos', { id, kind: 'other' });
    const res = await call(developer, 'POST', `/api/admin/incidents/${id}/resolve`, {
      note: 'Pressed by mistake, rider called back',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.acknowledgedBy.id).toBe(developer.userId);
    expect((await call(marshall, 'POST', `/api/admin/incidents/${randomUUID()}/acknowledge`)).statusCode).toBe(404);
  });

  it('reads one incident by id, resolved too, as the board shows it; unknown or hidden is 404', async () => {
    const rider = await registerRider(t.app);
    const id = randomUUID();
    expect((await call(rider, 'POST', '/api/my/sos', { id, kind: 'lost', note: 'Fog at the pass' })).statusCode).toBe(
      201,
    );
    await call(marshall, 'POST', `/api/admin/incidents/${id}/resolve`, { note: 'Found at the next village' });
    const read = await call(officer, 'GET', `/api/admin/incidents/${id}`);
    expect(read.statusCode, read.body).toBe(200);
    expect(read.json().data).toMatchObject({ id, kind: 'lost', note: 'Fog at the pass', status: 'resolved' });
    expect(read.json().data.contact).toBeUndefined();
    expect((await call(marshall, 'GET', `/api/admin/incidents/${id}`)).json().data.contact).toBeDefined();
    expect((await call(rider, 'GET', `/api/admin/incidents/${id}`)).statusCode).toBe(403);
    expect((await call(officer, 'GET', `/api/admin/incidents/${randomUUID()}`)).statusCode).toBe(404);
    const bad = await call(officer, 'GET', '/api/admin/incidents/12');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('id must be an incident id');
    // Another admin's own call is not this admin's to read, by id either.
    const otherAdmin = await staff(t.app, t.database.db, 'admin');
    const hidden = (await sos(otherAdmin)).json().data.incident.id;
    expect((await call(admin, 'GET', `/api/admin/incidents/${hidden}`)).statusCode).toBe(404);
    expect((await call(developer, 'GET', `/api/admin/incidents/${hidden}`)).statusCode).toBe(200);
  });

  it('lists every unresolved incident, open and longest waiting first, and filters by status', async () => {
    const earlier = await registerRider(t.app);
    const later = await registerRider(t.app);
    const earlierId = (await sos(earlier, { kind: 'lost', position })).json().data.incident.id;
    const laterId = (await sos(later, { kind: 'crash' })).json().data.incident.id;
    const all = (await listOf(officer)).data;
    const firstClosed = all.findIndex((i) => i.status !== 'open');
    const lastOpen = all.map((i) => i.status).lastIndexOf('open');
    expect(lastOpen).toBeLessThan(firstClosed === -1 ? all.length : firstClosed);
    const open = (await listOf(officer, '?status=open')).data;
    expect(open.every((i) => i.status === 'open')).toBe(true);
    const ids = open.map((i) => i.id);
    expect(ids.indexOf(earlierId)).toBeGreaterThanOrEqual(0);
    expect(ids.indexOf(earlierId)).toBeLessThan(ids.indexOf(laterId));
    expect((await call(officer, 'GET', '/api/admin/incidents?status=lost')).statusCode).toBe(400);
    expect((await call(officer, 'GET', '/api/admin/incidents?before=nope')).statusCode).toBe(400);
    const unknown = await call(officer, 'GET', `/api/admin/incidents?before=${randomUUID()}`);
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toBe('before must be an incident id from this list');
  });

  it('pages resolved incidents newest first with before, never repeating one', async () => {
    const rider = await registerRider(t.app);
    const mine: string[] = [];
    for (let i = 0; i < 5; i++) {
      const opened = await call(marshall, 'POST', '/api/admin/incidents', { riderId: rider.userId, kind: 'other' });
      expect(opened.statusCode, opened.body).toBe(201);
      const id = opened.json().data.id;
      await call(marshall, 'POST', `/api/admin/incidents/${id}/resolve`, { note: `done ${i}` });
      mine.push(id);
    }
    // An unresolved one is in the first answer whatever the page size.
    const open = (await sos(rider, { kind: 'crash' })).json().data.incident.id;
    const first = await listOf(officer, '?limit=2');
    expect(first.data.map((i) => i.id)).toContain(open);
    expect(first.data.filter((i) => i.status === 'resolved')).toHaveLength(2);
    expect(first.nextBefore).not.toBeNull();

    const seen: Incident[] = [];
    let before: string | null = null;
    for (let page = 0; page < 1000; page++) {
      const answer = await listOf(officer, `?status=resolved&limit=2${before ? `&before=${before}` : ''}`);
      expect(answer.data.length).toBeLessThanOrEqual(2);
      seen.push(...answer.data);
      before = answer.nextBefore;
      if (!before) break;
    }
    expect(before).toBeNull();
    const ids = seen.map((i) => i.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(seen.every((i) => i.status === 'resolved')).toBe(true);
    // Newest first: mine come in the reverse of the order they were made.
    expect(ids.filter((id) => mine.includes(id))).toEqual([...mine].reverse());
    const times = seen.map((i) => Date.parse(i.createdAt));
    expect(times).toEqual([...times].sort((a, b) => b - a));
  });

  it('marks an account’s calls as abuse: resolves them, keeps its later calls apart and silent, and lifts', async () => {
    const genuine = await registerRider(t.app);
    const genuineId = (await sos(genuine, { kind: 'crash' })).json().data.incident.id;
    const prankster = await registerRider(t.app);
    const firstId = (await sos(prankster, { kind: 'crash', note: 'lol' })).json().data.incident.id;
    await sos(prankster, { kind: 'lost' });

    expect((await call(officer, 'POST', `/api/admin/incidents/${firstId}/abuse`, { note: 'Prank' })).statusCode).toBe(
      403,
    );
    const noNote = await call(marshall, 'POST', `/api/admin/incidents/${firstId}/abuse`, {});
    expect(noNote.statusCode).toBe(400);
    expect(noNote.json().message).toBe('note is required to mark calls as abuse');
    let marked: Awaited<ReturnType<typeof call>> | undefined;
    const resolvedEvents = await eventsFor(prankster.userId, async () => {
      marked = await call(marshall, 'POST', `/api/admin/incidents/${firstId}/abuse`, { note: 'Prank calls' });
    });
    expect(marked?.statusCode, marked?.body).toBe(200);
    expect(marked?.json().data).toMatchObject({
      status: 'resolved',
      resolutionNote: 'Marked as abuse: Prank calls',
      resolvedBy: { id: marshall.userId },
      abuseMark: { note: 'Prank calls', markedBy: { id: marshall.userId } },
    });
    // The consoles hear it resolved, so their alarm stops.
    expect(resolvedEvents.map((e) => e.status)).toEqual(['resolved']);
    const audit = await t.database.db
      .select()
      .from(activities)
      .where(and(eq(activities.type, 'incident_updated'), eq(activities.userId, prankster.userId)));
    expect(audit.map((a) => (a.metadata as { action?: string }).action)).toContain('abuse_marked');
    const marks = (await call(officer, 'GET', '/api/admin/incidents/abuse-marks')).json().data;
    expect(marks).toContainEqual(
      expect.objectContaining({ userId: prankster.userId, note: 'Prank calls', incidentId: firstId }),
    );

    // Later calls are stored, raise no alarm, and are listed apart.
    let later: Awaited<ReturnType<typeof sos>> | undefined;
    const silent = await eventsFor(prankster.userId, async () => {
      later = await sos(prankster, { kind: 'medical', note: 'really hurt this time' });
      await sos(prankster, { kind: 'medical', note: 'please' });
    });
    expect(later?.statusCode).toBe(201);
    const mutedId = later?.json().data.incident.id;
    // Boards hear of them to refresh the list kept apart; every event says muted, so nothing rings.
    expect(silent.length).toBeGreaterThan(0);
    expect(silent.every((e) => e.muted === true && e.incidentId === mutedId)).toBe(true);
    const open = (await listOf(marshall, '?status=open')).data.map((i) => i.id);
    expect(open).toContain(genuineId);
    expect(open).not.toContain(mutedId);
    const apart = (await listOf(marshall, '?muted=true')).data.find((i) => i.id === mutedId);
    expect(apart).toMatchObject({ muted: true, status: 'open', callCount: 2, note: 'really hurt this time' });
    expect(apart?.followUps[0]?.note).toBe('please');

    // Lifting the mark: the call still waiting rings the alarm now, and later calls are ordinary.
    expect((await call(officer, 'DELETE', `/api/admin/incidents/abuse-marks/${prankster.userId}`)).statusCode).toBe(
      403,
    );
    let lifted: Awaited<ReturnType<typeof call>> | undefined;
    const raised = await eventsFor(prankster.userId, async () => {
      lifted = await call(admin, 'DELETE', `/api/admin/incidents/abuse-marks/${prankster.userId}`);
    });
    expect(lifted?.statusCode, lifted?.body).toBe(200);
    expect(raised).toEqual([expect.objectContaining({ incidentId: mutedId, status: 'open' })]);
    expect(raised[0]?.muted).toBeUndefined();
    expect((await listOf(marshall, '?status=open')).data.find((i) => i.id === mutedId)).toMatchObject({
      muted: false,
      abuseMark: null,
    });
    const again = await call(admin, 'DELETE', `/api/admin/incidents/abuse-marks/${prankster.userId}`);
    expect(again.statusCode).toBe(404);
    const liftLog = await t.database.db
      .select()
      .from(activities)
      .where(and(eq(activities.type, 'incident_updated'), eq(activities.userId, prankster.userId)));
    expect(liftLog.map((a) => (a.metadata as { action?: string }).action)).toContain('abuse_lifted');
    // The genuine rider's call was never touched.
    const [untouched] = await t.database.db.select().from(incidents).where(eq(incidents.id, genuineId));
    expect(untouched?.status).toBe('open');
  });

  it('marking again resolves what a marked account sent since; a staff-opened incident is not an SOS', async () => {
    const rider = await registerRider(t.app);
    const firstId = (await sos(rider, { kind: 'crash' })).json().data.incident.id;
    expect((await call(marshall, 'POST', `/api/admin/incidents/${firstId}/abuse`, { note: 'Junk' })).statusCode).toBe(
      200,
    );
    const mutedId = (await sos(rider, { kind: 'crash' })).json().data.incident.id;
    const again = await call(admin, 'POST', `/api/admin/incidents/${mutedId}/abuse`, { note: 'Still junk' });
    expect(again.statusCode, again.body).toBe(200);
    // The first mark stands.
    expect(again.json().data).toMatchObject({ status: 'resolved', abuseMark: { note: 'Junk' } });
    const unresolved = await t.database.db
      .select()
      .from(incidents)
      .where(and(eq(incidents.riderId, rider.userId), ne(incidents.status, 'resolved')));
    expect(unresolved).toEqual([]);

    const phoned = await call(marshall, 'POST', '/api/admin/incidents', { riderId: rider.userId, kind: 'medical' });
    const refused = await call(marshall, 'POST', `/api/admin/incidents/${phoned.json().data.id}/abuse`, {
      note: 'x',
    });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().code).toBe('INCIDENT_NOT_SOS');
    expect((await call(marshall, 'POST', `/api/admin/incidents/${randomUUID()}/abuse`, { note: 'x' })).statusCode).toBe(
      404,
    );
  });

  it('shows contact and medical data only to view_users or handle_incidents holders, never officers', async () => {
    const rider = await riderAtStation();
    const id = randomUUID();
    await call(rider, 'POST', '/api/my/sos', { id, kind: 'medical', position });
    for (const viewer of [admin, marshall, developer]) {
      const item = (await listOf(viewer)).data.find((i) => i.id === id);
      expect(item?.contact, viewer.role).toMatchObject({
        phoneNumber: '09171234567',
        emergencyContactName: 'Amihan Rider',
        emergencyContactNumber: '09181234567',
        bloodType: 'O+',
        allergies: 'Penicillin',
        medicalConditions: 'Asthma',
      });
    }
    const res = await call(officer, 'GET', '/api/admin/incidents');
    expect(res.statusCode).toBe(200);
    const item = (res.json().data as Array<Record<string, unknown>>).find((i) => i.id === id);
    expect(item).toBeTruthy();
    expect(item?.contact).toBeUndefined();
    for (const secret of ['09171234567', '09181234567', 'Penicillin', 'Asthma', 'Amihan']) {
      expect(res.body).not.toContain(secret);
    }
    // Officers watch; they do not handle.
    expect((await call(officer, 'POST', `/api/admin/incidents/${id}/acknowledge`)).statusCode).toBe(403);
    expect((await call(rider, 'GET', '/api/admin/incidents')).statusCode).toBe(403);
  });

  it('lets staff open an incident for a rider who phoned in, by rider number', async () => {
    const rider = await riderAtStation();
    const res = await call(marshall, 'POST', '/api/admin/incidents', {
      riderNumber: rider.riderNumber,
      kind: 'crash',
      note: 'Called the hotline from Km 42',
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().data).toMatchObject({
      source: 'staff',
      status: 'acknowledged',
      reportedBy: { id: marshall.userId },
      rider: { id: rider.userId, riderNumber: rider.riderNumber },
      lastStation: { id: stationId, name: 'Checkpoint Bukidnon' },
      callCount: 1,
      muted: false,
    });
    const missing = await call(marshall, 'POST', '/api/admin/incidents', { riderId: randomUUID(), kind: 'crash' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe('Rider not found');
    const none = await call(marshall, 'POST', '/api/admin/incidents', { kind: 'crash' });
    expect(none.statusCode).toBe(400);
    expect(none.json().message).toBe('riderNumber or riderId is required');
  });

  it('lists assignees: active holders of handle_incidents', async () => {
    const res = await call(admin, 'GET', '/api/admin/incidents/assignees');
    expect(res.statusCode).toBe(200);
    const roles = new Set((res.json().data as Array<{ role: string }>).map((u) => u.role));
    expect(roles.has('marshall')).toBe(true);
    expect(roles.has('officer')).toBe(false);
    // The visibility rule: an admin sees no other admin, nor developers.
    expect(roles.has('developer')).toBe(false);
  });

  it('pushes every change to open boards on the event stream, naming the rider', async () => {
    const rider = await registerRider(t.app);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const address = t.app.server.address();
    if (!address || typeof address === 'string') throw new Error('no port');
    const board = await openSse(`http://127.0.0.1:${address.port}/api/admin/event/stream`, officer.token);
    try {
      await waitLive(board);
      const id = randomUUID();
      await call(rider, 'POST', '/api/my/sos', { id, kind: 'crash' });
      await call(marshall, 'POST', `/api/admin/incidents/${id}/acknowledge`);
      const named = { riderId: rider.userId, riderNumber: rider.riderNumber, kitName: 'DATU OF THE SOUTH' };
      const opened = await board.waitFor(
        (e) => e.event === 'incident' && e.data.includes(id) && e.data.includes('"open"'),
      );
      expect(JSON.parse(opened.data)).toEqual({ incidentId: id, status: 'open', ...named });
      const acked = await board.waitFor(
        (e) => e.event === 'incident' && e.data.includes(id) && e.data.includes('acknowledged'),
      );
      expect(JSON.parse(acked.data)).toEqual({ incidentId: id, status: 'acknowledged', ...named });
      // A re-sent SOS changes nothing, so it publishes nothing.
      await call(rider, 'POST', '/api/my/sos', { id, kind: 'crash' });
      await new Promise((r) => setTimeout(r, 300));
      expect(board.events.filter((e) => e.event === 'incident' && e.data.includes(id))).toHaveLength(2);
    } finally {
      board.close();
    }
  });

  it('exports every incident with its rider, position and handling, to view_masterlist holders only', async () => {
    const rider = await riderAtStation();
    const sent = await sos(rider, { kind: 'mechanical', note: '@SUM(A1) chain snapped', position });
    expect(sent.statusCode, sent.body).toBe(201);
    const csv = await call(admin, 'GET', '/api/admin/exports/incidents.csv?reason=Incident+review');
    expect(csv.statusCode, csv.body).toBe(200);
    const line = csv.body.split('\r\n').find((l) => l.includes('chain snapped'));
    expect(line).toContain(`,${rider.riderNumber},`);
    expect(line).toContain('Mechanical');
    expect(line).toContain('7.07312');
    expect(line).toContain('Checkpoint Bukidnon');
    // What a rider typed never runs as a formula in the organiser's spreadsheet.
    expect(line).toContain("'@SUM(A1) chain snapped");
    expect((await call(officer, 'GET', '/api/admin/exports/incidents.csv')).statusCode).toBe(403);
  });

  it('leaves out of the list and the export the incidents of accounts the viewer may not see', async () => {
    // Any signed-in account may press SOS, a staff account too; another admin may not see it.
    const otherAdmin = await staff(t.app, t.database.db, 'admin');
    const note = `hidden-${randomUUID()}`;
    const sent = await sos(otherAdmin, { note });
    expect(sent.statusCode, sent.body).toBe(201);
    const listed = (who: Actor) =>
      call(who, 'GET', '/api/admin/incidents').then((r) => JSON.stringify(r.json().data).includes(note));
    const exported = (who: Actor) =>
      call(who, 'GET', '/api/admin/exports/incidents.csv?reason=Incident+review').then((r) => r.body.includes(note));
    expect(await listed(admin)).toBe(false);
    expect(await exported(admin)).toBe(false);
    // A developer sees every account: both the list and the sheet hold it.
    expect(await listed(developer)).toBe(true);
    expect(await exported(developer)).toBe(true);
    // Nor can the admin mark the hidden account's calls, or lift a mark on it.
    const id = sent.json().data.incident.id;
    expect((await call(admin, 'POST', `/api/admin/incidents/${id}/abuse`, { note: 'x' })).statusCode).toBe(404);
    expect((await call(developer, 'POST', `/api/admin/incidents/${id}/abuse`, { note: 'x' })).statusCode).toBe(200);
    const marks = (who: Actor) =>
      call(who, 'GET', '/api/admin/incidents/abuse-marks').then((r) => JSON.stringify(r.json().data));
    expect(await marks(admin)).not.toContain(otherAdmin.userId);
    expect(await marks(developer)).toContain(otherAdmin.userId);
    expect((await call(admin, 'DELETE', `/api/admin/incidents/abuse-marks/${otherAdmin.userId}`)).statusCode).toBe(404);
  });

  it.skipIf(kind !== 'postgres')(
    'an SOS sent to one server instance raises the alarm on a board connected to another, and back',
    async () => {
      const rider = await registerRider(t.app);
      const database = await openDatabase({ databaseUrl: t.databaseUrl });
      const second: FastifyInstance = await buildApp({ config: t.config, database, logger: false });
      try {
        await second.listen({ port: 0, host: '127.0.0.1' });
        const address = second.server.address();
        if (!address || typeof address === 'string') throw new Error('no port');
        const board = await openSse(`http://127.0.0.1:${address.port}/api/admin/event/stream`, officer.token);
        try {
          await waitLive(board);
          const id = randomUUID();
          expect((await sos(rider, { id, kind: 'lost', position })).statusCode).toBe(201);
          const raised = await board.waitFor((e) => e.event === 'incident' && JSON.parse(e.data).incidentId === id);
          expect(JSON.parse(raised.data)).toMatchObject({ status: 'open', riderId: rider.userId });
          // Acknowledged through the second instance: the rider, asking the first, is told who.
          const ack = await second.inject({
            method: 'POST',
            url: `/api/admin/incidents/${id}/acknowledge`,
            headers: bearer(marshall.token),
          });
          expect(ack.statusCode, ack.body).toBe(200);
          await board.waitFor(
            (e) =>
              e.event === 'incident' &&
              JSON.parse(e.data).incidentId === id &&
              JSON.parse(e.data).status === 'acknowledged',
          );
          const mine = await call(rider, 'GET', '/api/my/incidents');
          expect(mine.json().data.find((i: { id: string }) => i.id === id)).toMatchObject({ status: 'acknowledged' });
        } finally {
          board.close();
        }
      } finally {
        await second.close();
        await database.close();
      }
    },
  );

  it.skipIf(kind !== 'postgres')(
    'counts an account’s calls in the database: presses sent at once to two instances open one incident',
    async () => {
      const rider = await registerRider(t.app);
      const database = await openDatabase({ databaseUrl: t.databaseUrl });
      const second: FastifyInstance = await buildApp({ config: t.config, database, logger: false });
      try {
        await second.ready();
        const press = (app: FastifyInstance) =>
          app.inject({
            method: 'POST',
            url: '/api/my/sos',
            headers: bearer(rider.token),
            payload: { id: randomUUID(), kind: 'crash' },
          });
        const answers = await Promise.all(
          Array.from({ length: SOS_CALLS_PER_HOUR + 6 }, (_, i) => press(i % 2 ? second : t.app)),
        );
        const codes = answers.map((a) => a.statusCode).sort();
        expect(codes.filter((c) => c === 201)).toHaveLength(1);
        expect(codes.filter((c) => c === 200)).toHaveLength(SOS_CALLS_PER_HOUR - 1);
        expect(codes.filter((c) => c === 429)).toHaveLength(6);
        expect(await t.database.db.select().from(incidents).where(eq(incidents.riderId, rider.userId))).toHaveLength(1);
      } finally {
        await second.close();
        await database.close();
      }
    },
  );
});

describe.each(DB_KINDS)('event settings (%s)', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(kind);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers defaults, saves with manage_event only, audits, and is public to read', async () => {
    const admin = await staff(t.app, t.database.db, 'admin');
    const marshall = await staff(t.app, t.database.db, 'marshall');
    const first = await t.app.inject({ method: 'GET', url: '/api/settings/event' });
    expect(first.statusCode).toBe(200);
    expect(first.json().data).toMatchObject({ hotline: null, startsOn: null });
    const body = {
      name: 'Mindanao Warriors 2026',
      startsOn: '2026-12-04',
      endsOn: '2026-12-06',
      hotline: '+63 917 555 0101',
    };
    const refused = await t.app.inject({
      method: 'PUT',
      url: '/api/admin/settings/event',
      headers: bearer(marshall.token),
      payload: body,
    });
    expect(refused.statusCode).toBe(403);
    const saved = await t.app.inject({
      method: 'PUT',
      url: '/api/admin/settings/event',
      headers: bearer(admin.token),
      payload: body,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(saved.json().data).toMatchObject(body);
    const read = await t.app.inject({ method: 'GET', url: '/api/settings/event' });
    expect(read.json().data).toMatchObject(body);
    const log = await t.database.db.select().from(activities).where(eq(activities.type, 'event_settings_updated'));
    expect(log).toHaveLength(1);
    expect(log[0]?.details).toContain('emergency hotline: (none) → +63 917 555 0101');

    const backwards = await t.app.inject({
      method: 'PUT',
      url: '/api/admin/settings/event',
      headers: bearer(admin.token),
      payload: { ...body, endsOn: '2026-12-01' },
    });
    expect(backwards.statusCode).toBe(400);
    expect(backwards.json().message).toBe('endsOn must not be before startsOn');
    const badPhone = await t.app.inject({
      method: 'PUT',
      url: '/api/admin/settings/event',
      headers: bearer(admin.token),
      payload: { ...body, hotline: 'call Ana' },
    });
    expect(badPhone.statusCode).toBe(400);
    expect(badPhone.json().message).toMatch(/^hotline must be a phone number/);
  });
});
