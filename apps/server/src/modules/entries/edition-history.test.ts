// Issue 40: a past edition's event day is rows of its own edition, not a JSON copy. What
// that fixes, tried as staff would: a past incident still shows the messages it sent (the
// rollover used to delete the incident, and the messages lost their link), and deleting an
// account removes its incidents from every edition (the archive kept their notes and
// positions). The current edition reads none of last year's scans, incidents or marks.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notificationSettings } from '../../db/schema/messages';
import { buildTestApp, DB_KINDS, type TestApp } from '../../test/build-app';
import { type Actor, approvedRider, injectAs, rollOver, staff, syncScan } from '../../test/factories';
import { addPushDevice } from '../../test/push-devices';
import { writeOnlyMessages } from '../../test/write-only-messages';

const WRITE_ONLY_MESSAGES = writeOnlyMessages();

describe.each(DB_KINDS)('a past edition keeps its event day (%s)', (kind) => {
  let t: TestApp;
  let admin: Actor;
  let marshall: Actor;
  beforeAll(async () => {
    t = await buildTestApp(kind, { messages: WRITE_ONLY_MESSAGES });
    admin = await staff(t.app, t.database.db, 'admin');
    marshall = await staff(t.app, t.database.db, 'marshall');
  });
  afterAll(async () => t?.close());

  const ok = async (actor: Actor | null, method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, body?: unknown) => {
    const res = await injectAs(t.app, actor, method, url, body);
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
    return res.json();
  };

  const rollover = async () => (await rollOver(t.app, admin)).past;

  it('shows a past incident with its messages, and none of it in the current edition', async () => {
    const station = (
      await ok(admin, 'POST', '/api/admin/stations', { name: `CP ${randomUUID().slice(0, 4)}`, kind: 'checkpoint' })
    ).data.id as string;
    const rider = await approvedRider(t.app, admin);
    const code = (await ok(rider, 'GET', '/api/my/rider-code')).data.riderCode as string;
    await syncScan(t.app, marshall, { stationId: station, riderCode: code });
    await addPushDevice(t.database.db, marshall);
    await t.database.db.insert(notificationSettings).values({ userId: marshall.userId, onCall: true });
    const id = randomUUID();
    await ok(rider, 'POST', '/api/my/sos', { id, kind: 'crash', note: 'Chain snapped on the climb' });
    await ok(marshall, 'POST', `/api/admin/incidents/${id}/acknowledge`);
    const card = (await ok(admin, 'GET', `/api/admin/incidents/${id}`)).data;
    expect(card.messages.length).toBeGreaterThanOrEqual(2);

    const past = await rollover();
    // History: the card reads as it did, its messages included.
    expect((await ok(admin, 'GET', `/api/admin/incidents/${id}?edition=${past}`)).data).toEqual(card);
    const pastList = (await ok(admin, 'GET', `/api/admin/incidents?edition=${past}`)).data as Array<{ id: string }>;
    expect(pastList.map((i) => i.id)).toContain(id);
    const pastScans = (await ok(admin, 'GET', `/api/admin/event/riders/${rider.userId}/timeline?edition=${past}`)).data;
    expect(JSON.stringify(pastScans)).toContain(station);
    // The current edition: none of it (the same station, copied, has no passage).
    expect((await injectAs(t.app, admin, 'GET', `/api/admin/incidents/${id}`)).statusCode).toBe(404);
    expect(
      ((await ok(admin, 'GET', '/api/admin/incidents')).data as Array<{ id: string }>).map((i) => i.id),
    ).not.toContain(id);
    const board = (await ok(admin, 'GET', '/api/admin/event/board')).data as Array<{
      stationId: string;
      passed: number;
    }>;
    expect(board.find((s) => s.stationId === station)).toMatchObject({ passed: 0 });
    // The rider, not entered this year, may still press SOS: a new incident, not last year's.
    const again = randomUUID();
    await ok(rider, 'POST', '/api/my/sos', { id: again, kind: 'medical', note: 'Dizzy' });
    const mine = (await ok(rider, 'GET', '/api/my/incidents')).data as Array<{ id: string }>;
    expect(mine.map((i) => i.id)).toEqual([again]);
  });

  it('deletes an account’s incidents, notes and positions in every edition', async () => {
    const rider = await approvedRider(t.app, admin);
    const id = randomUUID();
    await ok(rider, 'POST', '/api/my/sos', {
      id,
      kind: 'mechanical',
      note: 'Chain snapped on the climb near Marilog',
      position: { lat: 7.41, lng: 125.27, accuracy: 12, at: new Date().toISOString() },
    });
    const past = await rollover();
    const listed = JSON.stringify((await ok(admin, 'GET', `/api/admin/incidents?edition=${past}`)).data);
    expect(listed).toContain('Chain snapped on the climb near Marilog');

    await ok(admin, 'DELETE', `/api/admin/users/${rider.userId}`);
    const after = JSON.stringify((await ok(admin, 'GET', `/api/admin/incidents?edition=${past}`)).data);
    expect(after).not.toContain('Chain snapped on the climb near Marilog');
    expect(after).not.toContain(id);
    const exported = await injectAs(
      t.app,
      admin,
      'GET',
      `/api/admin/exports/incidents.csv?reason=Audit&edition=${past}`,
    );
    expect(exported.statusCode).toBe(200);
    expect(exported.body).not.toContain('Chain snapped');
  });
});
