// Who looked (DESIGN.md §12): every staff answer carrying a rider's medical notes, emergency
// contact, birthdate or position writes one line per rider, found in the answer itself; the
// rider reads their lines, view_logs reads them by rider and staff member, and the breach
// kit lists who was read in a window, as CSV too.
import { randomUUID } from 'node:crypto';
import { and, count, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { dataAccess } from '../../db/schema/data-access';
import { DB_KINDS, useTestApp } from '../../test/build-app';
import { FIXED_PATHS } from '../../test/every-answer';
import { type Actor, approvedRider, injectAs } from '../../test/factories';
import { sensitiveReadsIn } from './sensitive-reads';

describe('sensitive fields in an answer', () => {
  const kindsOf = (answer: unknown) =>
    Object.fromEntries([...sensitiveReadsIn(answer).byRider].map(([id, kinds]) => [id, [...kinds].sort()]));

  it('names the rider of a record, an incident (its rider, contact and position) and a track', () => {
    expect(kindsOf({ user: { id: 'u1', firstName: 'A', birthdate: '1990-01-02', allergies: null } })).toEqual({
      u1: ['birthdate'],
    });
    const incident = {
      id: 'incident-1',
      position: { lat: 7.1, lng: 125.6, accuracy: 5, at: '2026-03-14T01:00:00Z' },
      rider: { id: 'u2', riderNumber: 7 },
      followUps: [{ id: 'f1', position: { lat: 7.2, lng: 125.7, accuracy: 9, at: '2026-03-14T01:05:00Z' } }],
      contact: { firstName: 'B', emergencyContactNumber: '09171234567', bloodType: 'O+', allergies: '' },
    };
    expect(kindsOf({ data: [incident] })).toEqual({ u2: ['emergency_contact', 'medical', 'position'] });
    expect(kindsOf({ userId: 'u3', points: [{ lat: 7, lng: 125, at: '2026-03-14T01:00:00Z' }] })).toEqual({
      u3: ['position'],
    });
  });

  it('does not take a station’s or a route’s coordinates, nor empty fields, for a rider’s', () => {
    expect(kindsOf({ userId: 'u4', nextStation: { id: 's1', name: 'CP1', lat: 7, lng: 125 } })).toEqual({});
    expect(kindsOf([{ id: 'u5', birthdate: null, emergencyContactName: '', bloodType: undefined }])).toEqual({});
    expect(sensitiveReadsIn({ list: [{ name: 'x', allergies: 'Bees' }] }).unnamed).toEqual(new Set(['medical']));
  });
});

describe.each(DB_KINDS)('who looked (%s)', (kind) => {
  const t = useTestApp(kind, 'admin', 'marshall', 'officer');
  const { admin, marshall, officer } = t.staff;
  const get = (actor: Actor, url: string) => injectAs(t.app, actor, 'GET', url);
  const linesOf = async (riderId: string) =>
    Number(
      (await t.database.db.select({ n: count() }).from(dataAccess).where(eq(dataAccess.riderId, riderId)))[0]?.n ?? 0,
    );

  /** A verified rider with sensitive values no other rider has, and an SOS with its position. */
  async function riderWithSecrets() {
    const tag = randomUUID().slice(0, 8);
    const values = {
      allergies: `Bee stings ${tag}`,
      emergencyContactName: `Kin ${tag}`,
      // Seven decimals, the last not 0: the activity log's SOS line prints the position rounded
      // to five (as prose, not a field: docs/privacy.md), which must not contain this text.
      lat: 7 + (Number.parseInt(tag.slice(0, 4), 16) * 10 + 7) / 1e7,
    };
    const rider = await approvedRider(t.app, admin, {
      allergies: values.allergies,
      emergencyContactName: values.emergencyContactName,
      bloodType: 'O+',
    });
    const sos = await injectAs(t.app, rider, 'POST', '/api/my/sos', {
      id: randomUUID(),
      kind: 'crash',
      position: { lat: values.lat, lng: 125.61, accuracy: 8, at: new Date().toISOString() },
    });
    expect(sos.statusCode, sos.body).toBe(201);
    return { rider, values };
  }

  it('logs a staff read of a rider’s record, and the rider reads who looked', async () => {
    const { rider } = await riderWithSecrets();
    const before = await linesOf(rider.userId);
    const read = await get(admin, `/api/admin/users/${rider.userId}`);
    expect(read.statusCode, read.body).toBe(200);
    const [line] = await t.database.db
      .select()
      .from(dataAccess)
      .where(and(eq(dataAccess.riderId, rider.userId), eq(dataAccess.source, 'GET /api/admin/users/:id')));
    expect(line).toMatchObject({ staffId: admin.userId });
    expect(line?.fields).toEqual(['birthdate', 'emergency_contact']);
    expect(await linesOf(rider.userId)).toBe(before + 1);

    const mine = await get(rider, '/api/my/data-access');
    expect(mine.statusCode, mine.body).toBe(200);
    const seen = mine.json().data.find((l: { source: string }) => l.source === 'GET /api/admin/users/:id');
    expect(seen).toMatchObject({ staffId: admin.userId, fields: ['birthdate', 'emergency_contact'] });
    expect(seen).not.toHaveProperty('riderId');
    // A rider reading their own record is not a staff read.
    const own = await linesOf(rider.userId);
    expect((await get(rider, '/api/auth/profile')).statusCode).toBe(200);
    expect(await linesOf(rider.userId)).toBe(own);
  });

  it('logs every staff answer that carries the rider’s values, and no other', async () => {
    const { rider, values } = await riderWithSecrets();
    const paths = [
      ...FIXED_PATHS.filter((p) => p.startsWith('/api/admin/')),
      `/api/admin/users/${rider.userId}`,
      `/api/admin/id-cards/user/${rider.userId}`,
      `/api/admin/kit-tracking/${rider.userId}`,
      `/api/admin/event/riders/${rider.userId}/timeline`,
    ];
    const carrying: string[] = [];
    for (const path of paths) {
      const before = await linesOf(rider.userId);
      const res = await get(admin, path);
      const body = res.body;
      const carries =
        res.statusCode === 200 &&
        (body.includes(values.allergies) ||
          body.includes(values.emergencyContactName) ||
          body.includes(String(values.lat)));
      const after = await linesOf(rider.userId);
      if (carries) carrying.push(path);
      expect([path, after - before]).toEqual([path, carries ? 1 : 0]);
    }
    // The sweep reached the screens that show these: the record, the incidents, the stickers.
    expect(carrying).toEqual(
      expect.arrayContaining([
        '/api/admin/incidents',
        `/api/admin/users/${rider.userId}`,
        '/api/admin/masterlist?limit=100',
      ]),
    );
  });

  it('logs an export with sensitive columns as a read of every rider in it', async () => {
    const { rider } = await riderWithSecrets();
    const res = await get(marshall, '/api/admin/exports/masterlist.csv?reason=Insurance+renewal');
    expect(res.statusCode, res.body).toBe(200);
    const [line] = await t.database.db
      .select()
      .from(dataAccess)
      .where(and(eq(dataAccess.riderId, rider.userId), eq(dataAccess.staffId, marshall.userId)));
    expect(line).toMatchObject({ source: 'export masterlist.csv', reason: 'Insurance renewal' });
    expect(line?.fields).toEqual(expect.arrayContaining(['birthdate', 'emergency_contact']));
  });

  it('shows the log by rider and by staff member to view_logs only, and the breach kit as JSON and CSV', async () => {
    const from = new Date(Date.now() - 1000).toISOString();
    const { rider } = await riderWithSecrets();
    expect((await get(marshall, `/api/admin/users/${rider.userId}`)).statusCode).toBe(200);
    const to = new Date(Date.now() + 1000).toISOString();

    const byRider = await get(admin, `/api/admin/data-access?userId=${rider.userId}&staffId=${marshall.userId}`);
    expect(byRider.statusCode, byRider.body).toBe(200);
    expect(byRider.json().data.entries).toEqual([
      expect.objectContaining({ riderId: rider.userId, staffId: marshall.userId, source: 'GET /api/admin/users/:id' }),
    ]);
    expect((await get(officer, '/api/admin/data-access')).statusCode).toBe(403);
    expect((await get(marshall, '/api/admin/data-access')).statusCode).toBe(403);

    const kit = await get(admin, `/api/admin/data-access/affected?from=${from}&to=${to}&staffId=${marshall.userId}`);
    expect(kit.statusCode, kit.body).toBe(200);
    const affected = kit.json().data.find((r: { riderId: string }) => r.riderId === rider.userId);
    expect(affected).toMatchObject({ reads: 1, fields: ['birthdate', 'emergency_contact'] });
    const csv = await get(
      admin,
      `/api/admin/data-access/affected?from=${from}&to=${to}&staffId=${marshall.userId}&format=csv`,
    );
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(csv.body).toContain(rider.userId);
    expect(csv.body).toContain('Birthdate; Emergency contact');
    const refused = await get(admin, `/api/admin/data-access/affected?from=${to}&to=${from}`);
    expect([refused.statusCode, refused.json().message]).toEqual([400, 'from must not be after to']);
  });

  it('finds riders and staff members to pick by name or email, and logs no read for it', async () => {
    const { rider } = await riderWithSecrets();
    const before = await linesOf(rider.userId);
    const found = await get(
      admin,
      `/api/admin/data-access/people?who=riders&search=${encodeURIComponent(rider.email)}`,
    );
    expect(found.statusCode, found.body).toBe(200);
    expect(found.json().data).toEqual([
      { id: rider.userId, name: expect.any(String), email: rider.email, role: 'participant' },
    ]);
    expect(found.body).not.toContain('birthdate');
    expect(await linesOf(rider.userId)).toBe(before);
    // Staff members are found among the staff only, riders among the riders only.
    const staffFound = await get(admin, `/api/admin/data-access/people?who=staff&search=${marshall.email}`);
    expect(staffFound.json().data.map((p: { id: string }) => p.id)).toEqual([marshall.userId]);
    const notRider = await get(admin, `/api/admin/data-access/people?who=riders&search=${marshall.email}`);
    expect(notRider.json().data).toEqual([]);
    expect((await get(officer, '/api/admin/data-access/people')).statusCode).toBe(403);
  });

  it('shows an admin their own reads, in the log and the breach kit, though admins are hidden from admins', async () => {
    const from = new Date(Date.now() - 1000).toISOString();
    const { rider } = await riderWithSecrets();
    expect((await get(admin, `/api/admin/users/${rider.userId}`)).statusCode).toBe(200);
    const to = new Date(Date.now() + 1000).toISOString();
    const log = await get(admin, `/api/admin/data-access?userId=${rider.userId}`);
    expect(log.json().data.entries).toContainEqual(
      expect.objectContaining({ staffId: admin.userId, source: 'GET /api/admin/users/:id', reason: null }),
    );
    const kit = await get(admin, `/api/admin/data-access/affected?from=${from}&to=${to}&staffId=${admin.userId}`);
    expect(kit.json().data.map((r: { riderId: string }) => r.riderId)).toContain(rider.userId);
    const self = await get(admin, `/api/admin/data-access/people?who=staff&search=${encodeURIComponent(admin.email)}`);
    expect(self.json().data.map((p: { id: string }) => p.id)).toEqual([admin.userId]);
  });
});
