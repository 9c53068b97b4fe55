import { randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app';
import { openDatabase } from '../../db/client';
import { activities } from '../../db/schema/activities';
import { incidents } from '../../db/schema/incidents';
import { users } from '../../db/schema/users';
import { buildTestApp, DB_KINDS, type TestApp, useTestApp } from '../../test/build-app';
import { type Actor, approvedRider, bearer, injectAs, registerRider, staff, syncScan } from '../../test/factories';
import { openSse, waitLive } from '../../test/sse-client';

describe.each(DB_KINDS)('incidents (%s)', (kind) => {
  const t = useTestApp(kind, 'admin', 'marshall', 'officer', 'developer');
  const { admin, marshall, officer, developer } = t.staff;
  let rider: Actor & { riderNumber: number };
  let stationId: string;

  const call = (actor: Actor | null, method: 'GET' | 'POST' | 'PUT', url: string, payload?: unknown) =>
    injectAs(t.app, actor, method, url, payload);

  const position = { lat: 7.07312, lng: 125.61234, accuracy: 18, at: '2026-11-25T02:40:00.000Z' };

  async function sos(who: Actor, body: Record<string, unknown> = {}) {
    return call(who, 'POST', '/api/my/sos', { id: randomUUID(), kind: 'crash', ...body });
  }

  beforeAll(async () => {
    rider = await approvedRider(t.app, admin);
    await t.database.db
      .update(users)
      .set({ bloodType: 'O+', allergies: 'Penicillin', medicalConditions: 'Asthma' })
      .where(eq(users.id, rider.userId));
    const st = await call(admin, 'POST', '/api/admin/stations', { name: 'Checkpoint Bukidnon', kind: 'checkpoint' });
    stationId = st.json().data.id;
    const [row] = await t.database.db.select({ code: users.riderCode }).from(users).where(eq(users.id, rider.userId));
    const scan = await syncScan(t.app, marshall, { stationId, riderCode: row?.code, deviceId: 'phone-A' });
    expect(scan.status).toBe('accepted');
  });

  it('opens one incident per SOS id: 201 first, 200 with the same incident on a re-send', async () => {
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
    });
    // The spec's sos_call activity: high priority, with a location; written once.
    const calls = await t.database.db
      .select()
      .from(activities)
      .where(and(eq(activities.type, 'sos_call'), eq(activities.userId, rider.userId)));
    const mine = calls.filter((a) => (a.metadata as { incidentId?: string }).incidentId === id);
    expect(mine).toHaveLength(1);
    expect(mine[0]?.priority).toBe('high');
    expect(mine[0]?.location).toContain('7.07312, 125.61234');
    expect(mine[0]?.details).toContain('last seen at Checkpoint Bukidnon');
  });

  it('refuses an SOS id another account used, and bad bodies with the field named', async () => {
    const id = randomUUID();
    expect((await call(rider, 'POST', '/api/my/sos', { id, kind: 'lost' })).statusCode).toBe(201);
    const other = await registerRider(t.app);
    const stolen = await call(other, 'POST', '/api/my/sos', { id, kind: 'lost' });
    expect(stolen.statusCode).toBe(409);
    expect(stolen.json().code).toBe('SOS_ID_TAKEN');
    const badKind = await sos(rider, { kind: 'bored' });
    expect(badKind.statusCode).toBe(400);
    expect(badKind.json().message).toMatch(/^kind must be one of/);
    const badId = await call(rider, 'POST', '/api/my/sos', { id: 'not-a-uuid', kind: 'crash' });
    expect(badId.json().message).toBe('id must be a UUID made on the device');
    const badPos = await sos(rider, { position: { ...position, lat: 200 } });
    expect(badPos.statusCode).toBe(400);
    expect((await call(null, 'POST', '/api/my/sos', { id: randomUUID(), kind: 'crash' })).statusCode).toBe(401);
  });

  it('moves open → acknowledged → assigned → resolved, and the rider sees who and when', async () => {
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
    const id = randomUUID();
    await call(rider, 'POST', '/api/my/sos', { id, kind: 'other' });
    const res = await call(developer, 'POST', `/api/admin/incidents/${id}/resolve`, {
      note: 'Pressed by mistake, rider called back',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.acknowledgedBy.id).toBe(developer.userId);
    expect((await call(marshall, 'POST', `/api/admin/incidents/${randomUUID()}/acknowledge`)).statusCode).toBe(404);
  });

  it('lists open incidents first and filters by status', async () => {
    const id = randomUUID();
    await call(rider, 'POST', '/api/my/sos', { id, kind: 'lost', position });
    const all = (await call(officer, 'GET', '/api/admin/incidents')).json().data as Array<{
      status: string;
      id: string;
    }>;
    const firstClosed = all.findIndex((i) => i.status !== 'open');
    const lastOpen = all.map((i) => i.status).lastIndexOf('open');
    expect(lastOpen).toBeLessThan(firstClosed === -1 ? all.length : firstClosed);
    const open = (await call(officer, 'GET', '/api/admin/incidents?status=open')).json().data as Array<{
      status: string;
    }>;
    expect(open.every((i) => i.status === 'open')).toBe(true);
    expect(open.length).toBeGreaterThan(0);
    const bad = await call(officer, 'GET', '/api/admin/incidents?status=lost');
    expect(bad.statusCode).toBe(400);
  });

  it('shows contact and medical data only to view_users or handle_incidents holders, never officers', async () => {
    const id = randomUUID();
    await call(rider, 'POST', '/api/my/sos', { id, kind: 'medical', position });
    for (const viewer of [admin, marshall, developer]) {
      const list = (await call(viewer, 'GET', '/api/admin/incidents')).json().data as Array<Record<string, unknown>>;
      const item = list.find((i) => i.id === id);
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
    const sent = await sos(rider, { kind: 'mechanical', note: '@SUM(A1) chain snapped', position });
    expect(sent.statusCode, sent.body).toBe(201);
    const csv = await call(admin, 'GET', '/api/admin/exports/incidents.csv');
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
      call(who, 'GET', '/api/admin/exports/incidents.csv').then((r) => r.body.includes(note));
    expect(await listed(admin)).toBe(false);
    expect(await exported(admin)).toBe(false);
    // A developer sees every account: both the list and the sheet hold it.
    expect(await listed(developer)).toBe(true);
    expect(await exported(developer)).toBe(true);
  });
  it.skipIf(kind !== 'postgres')(
    'an SOS sent to one server instance raises the alarm on a board connected to another, and back',
    async () => {
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
          await board.waitFor((e) => e.event === 'incident' && JSON.parse(e.data).status === 'acknowledged');
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
