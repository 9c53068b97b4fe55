// Editions (DESIGN.md §9, issue 29): the list, the organiser's create and edit, the event
// settings as the current edition's, and the registration window on both registration routes.
import { randomBytes } from 'node:crypto';
import { formatRallyMoment } from '@rally/shared/catalog/editions';
import { DEFAULT_EVENT_NAME, RALLY_TIME_ZONE } from '@rally/shared/catalog/event-day';
import { PRICES } from '@rally/shared/catalog/registration';
import type { Edition } from '@rally/shared/contracts/editions';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { activities } from '../../db/schema/activities';
import { users } from '../../db/schema/users';
import { DB_KINDS, useTestApp } from '../../test/build-app';
import {
  type Actor,
  approvedRider,
  injectAs,
  multipart,
  registerRider,
  registrationFields,
  registrationFiles,
} from '../../test/factories';

const DAY = 24 * 60 * 60 * 1000;
/** A name no other test of the file uses. */
const named = (what: string) => `${what} ${randomBytes(3).toString('hex')}`;

describe.each(DB_KINDS)('editions (%s)', (kind) => {
  const t = useTestApp(kind, 'admin', 'marshall', 'officer');
  const { admin, marshall, officer } = t.staff;

  const call = (actor: Actor | null, method: 'GET' | 'POST' | 'PATCH' | 'PUT', url: string, payload?: unknown) =>
    injectAs(t.app, actor, method, url, payload);
  const list = async () => {
    const res = await call(null, 'GET', '/api/editions');
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as Edition[];
  };
  const current = async () => {
    const editions = (await list()).filter((e) => e.current);
    expect(editions).toHaveLength(1);
    return editions[0] as Edition;
  };
  /** Sets the current edition's window for one test, and puts it back open after. */
  const withWindow = async (window: Partial<Edition>, run: () => Promise<void>) => {
    const { id } = await current();
    const set = await call(admin, 'PATCH', `/api/admin/editions/${id}`, window);
    expect(set.statusCode, set.body).toBe(200);
    try {
      await run();
    } finally {
      const reset = await call(admin, 'PATCH', `/api/admin/editions/${id}`, {
        registrationOpensAt: null,
        registrationClosesAt: null,
      });
      expect(reset.statusCode, reset.body).toBe(200);
    }
  };

  it('answers one current edition to anyone, made by the upgrade from the event settings', async () => {
    const edition = await current();
    expect(edition).toMatchObject({
      name: DEFAULT_EVENT_NAME,
      registrationOpensAt: null,
      registrationClosesAt: null,
      numbersHeldUntil: null,
      registration: 'open',
      copiedFrom: null,
    });
    // The year of a fresh install: this year in the rally's time zone.
    const year = new Intl.DateTimeFormat('en', { timeZone: RALLY_TIME_ZONE, year: 'numeric' }).format(new Date());
    expect(edition.year).toBe(Number(year));
  });

  it('makes the next edition from the current one: its settings copied, its dates its own, not current', async () => {
    const source = await current();
    const saved = await call(admin, 'PUT', '/api/admin/settings/event', {
      name: source.name,
      startsOn: source.startsOn,
      endsOn: source.endsOn,
      hotline: '+63 917 555 0199',
    });
    expect(saved.statusCode, saved.body).toBe(200);

    const name = named('Warriors 2031');
    const res = await call(admin, 'POST', '/api/admin/editions', {
      name,
      year: 2031,
      startsOn: '2031-03-14',
      endsOn: '2031-03-16',
      registrationOpensAt: '2030-12-01T08:00:00+08:00',
      registrationClosesAt: '2031-02-28T23:59:00+08:00',
      numbersHeldUntil: '2031-01-15T23:59:00+08:00',
      copyFrom: source.id,
    });
    expect(res.statusCode, res.body).toBe(201);
    const made = res.json().data.edition as Edition;
    expect(made).toMatchObject({
      name,
      year: 2031,
      startsOn: '2031-03-14',
      endsOn: '2031-03-16',
      registrationOpensAt: '2030-12-01T00:00:00.000Z',
      registrationClosesAt: '2031-02-28T15:59:00.000Z',
      numbersHeldUntil: '2031-01-15T15:59:00.000Z',
      hotline: '+63 917 555 0199',
      copiedFrom: source.id,
      current: false,
      registration: 'not_yet',
    });
    // Newest first; the current one is still the one the site works on.
    const all = await list();
    expect(all.map((e) => e.year)).toEqual([...all.map((e) => e.year)].sort((a, b) => b - a));
    expect(all.find((e) => e.id === made.id)).toEqual(made);
    expect((await current()).id).toBe(source.id);
    const log = await t.database.db.select().from(activities).where(eq(activities.type, 'edition_updated'));
    expect(log.some((a) => a.description.includes(`created the edition ${name} (2031)`))).toBe(true);

    // An edition made without copyFrom starts with no hotline.
    const bare = await call(admin, 'POST', '/api/admin/editions', {
      name: named('Bare'),
      year: 2032,
      startsOn: '2032-03-01',
      endsOn: '2032-03-01',
    });
    expect(bare.statusCode, bare.body).toBe(201);
    expect(bare.json().data.edition).toMatchObject({ hotline: null, copiedFrom: null, registration: 'open' });
  });

  it('refuses bad input with a message naming the field, and changes nothing', async () => {
    const before = await list();
    const base = { name: named('Bad'), year: 2033, startsOn: '2033-03-01', endsOn: '2033-03-02' };
    const cases: Array<[unknown, number, RegExp]> = [
      [{ ...base, year: 1999 }, 400, /year must be at least 2000/],
      [{ ...base, year: '2033' }, 400, /year must be a number/],
      [{ ...base, startsOn: '2033-02-30' }, 400, /startsOn must be a real date/],
      [{ ...base, endsOn: '2033-02-01' }, 400, /endsOn must not be before startsOn/],
      [
        { ...base, registrationOpensAt: '2033-02-01T00:00:00Z', registrationClosesAt: '2033-01-01T00:00:00Z' },
        400,
        /registrationClosesAt must be after registrationOpensAt/,
      ],
      [{ ...base, registrationOpensAt: 'next week' }, 400, /registrationOpensAt must be an ISO 8601 date-time/],
      [{ ...base, copyFrom: 'x' }, 400, /copyFrom must be an edition id/],
      [{ ...base, copyFrom: '00000000-0000-4000-8000-000000000000' }, 404, /Edition not found/],
      [{ ...base, name: '   ' }, 400, /name/],
      [{ ...base, current: true }, 400, /current/],
      [{ ...base, name: DEFAULT_EVENT_NAME.toUpperCase() }, 409, /already exists/],
    ];
    for (const [payload, status, message] of cases) {
      const res = await call(admin, 'POST', '/api/admin/editions', payload);
      expect(res.statusCode, `${JSON.stringify(payload)} → ${res.body}`).toBe(status);
      expect(res.json()).toMatchObject({ success: false });
      expect(res.json().message).toMatch(message);
    }
    expect(await list()).toEqual(before);

    // A change is checked on the edition as it would become.
    const { id } = await current();
    const patched = await call(admin, 'PATCH', `/api/admin/editions/${id}`, {
      registrationClosesAt: '2001-01-01T00:00:00Z',
    });
    expect(patched.statusCode).toBe(200);
    const crossing = await call(admin, 'PATCH', `/api/admin/editions/${id}`, {
      registrationOpensAt: '2002-01-01T00:00:00Z',
    });
    expect(crossing.statusCode).toBe(400);
    expect(crossing.json().message).toBe('registrationClosesAt must be after registrationOpensAt');
    expect((await current()).registrationOpensAt).toBeNull();
    await call(admin, 'PATCH', `/api/admin/editions/${id}`, { registrationClosesAt: null });
    const empty = await call(admin, 'PATCH', `/api/admin/editions/${id}`, {});
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe('Nothing to change: send at least one field');
    const missing = await call(admin, 'PATCH', '/api/admin/editions/00000000-0000-4000-8000-000000000000', {
      year: 2040,
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().code).toBe('EDITION_NOT_FOUND');
  });

  it('charges a registration the current edition’s prices, which an organiser sets', async () => {
    const { id, prices } = await current();
    expect(prices).toEqual(PRICES);
    // A bad price changes nothing.
    const bad = await call(admin, 'PATCH', `/api/admin/editions/${id}`, { prices: { lakan: -5 } });
    expect([bad.statusCode, bad.json().message]).toEqual([400, 'the lakan price must not be negative']);
    expect((await current()).prices).toEqual(PRICES);
    const set = await call(admin, 'PATCH', `/api/admin/editions/${id}`, { prices: { lakan: 2900 } });
    expect(set.statusCode, set.body).toBe(200);
    try {
      expect((await current()).prices).toEqual({ ...PRICES, lakan: 2900 });
      const rider = await registerRider(t.app, { category: 'lakan' });
      const pending = await call(admin, 'GET', `/api/admin/verifications/pending?search=${rider.verificationCode}`);
      expect(pending.json().data[0]).toMatchObject({ payment_amount: 2900, expected_amount: 2900 });
    } finally {
      const reset = await call(admin, 'PATCH', `/api/admin/editions/${id}`, { prices: PRICES });
      expect(reset.statusCode, reset.body).toBe(200);
    }
  });

  it('lets only manage_event make and change editions', async () => {
    const { id } = await current();
    const payload = { name: named('Nope'), year: 2034, startsOn: '2034-03-01', endsOn: '2034-03-02' };
    for (const actor of [marshall, officer]) {
      expect((await call(actor, 'POST', '/api/admin/editions', payload)).statusCode).toBe(403);
      expect((await call(actor, 'PATCH', `/api/admin/editions/${id}`, { year: 2034 })).statusCode).toBe(403);
    }
    expect((await call(null, 'POST', '/api/admin/editions', payload)).statusCode).toBe(401);
    expect((await list()).some((e) => e.name === payload.name)).toBe(false);
  });

  it('refuses a registration before the window opens and after it closes, naming the dates, on both routes', async () => {
    const now = t.app.clock.now();
    const opensAt = new Date(now.getTime() + 2 * DAY).toISOString();
    const closesAt = new Date(now.getTime() + 40 * DAY).toISOString();
    const { name } = await current();
    const countRiders = async () =>
      (await t.database.db.select({ n: sql<number>`count(*)::int` }).from(users))[0]?.n ?? 0;

    await withWindow({ registrationOpensAt: opensAt, registrationClosesAt: closesAt }, async () => {
      expect((await current()).registration).toBe('not_yet');
      const riders = await countRiders();
      const fields = registrationFields({ paymentMethod: 'cash' });
      const json = await t.app.inject({ method: 'POST', url: '/api/auth/register', payload: fields });
      expect(json.statusCode, json.body).toBe(409);
      expect(json.json()).toEqual({
        success: false,
        code: 'REGISTRATION_CLOSED',
        message: `Registration for ${name} opens on ${formatRallyMoment(opensAt)}. It closes on ${formatRallyMoment(closesAt)}.`,
      });
      const upload = await t.app.inject({
        method: 'POST',
        url: '/api/auth/register-with-uploads',
        ...multipart(registrationFields(), await registrationFiles()),
      });
      expect(upload.statusCode).toBe(409);
      expect(upload.json().code).toBe('REGISTRATION_CLOSED');
      expect(await countRiders()).toBe(riders);

      // The server's clock decides: once it passes the opening, the same rider gets in.
      const realClock = t.app.clock.now;
      t.app.clock.now = () => new Date(Date.parse(opensAt) + 60_000);
      try {
        expect((await current()).registration).toBe('open');
        const late = await t.app.inject({ method: 'POST', url: '/api/auth/register', payload: fields });
        expect(late.statusCode, late.body).toBe(201);
        t.app.clock.now = () => new Date(Date.parse(closesAt));
        expect((await current()).registration).toBe('closed');
        const closed = await t.app.inject({
          method: 'POST',
          url: '/api/auth/register',
          payload: registrationFields({ paymentMethod: 'cash' }),
        });
        expect(closed.statusCode).toBe(409);
        expect(closed.json().message).toBe(`Registration for ${name} closed on ${formatRallyMoment(closesAt)}.`);
      } finally {
        t.app.clock.now = realClock;
      }
    });
    // Open again: no window, no refusal.
    await registerRider(t.app);
  });

  it('keeps the event settings as the current edition, and counts a rider’s verified editions', async () => {
    const { id } = await current();
    const name = named('Mindanao Warriors');
    const saved = await call(admin, 'PUT', '/api/admin/settings/event', {
      name,
      startsOn: '2030-03-01',
      endsOn: '2030-03-03',
      hotline: null,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    expect(await current()).toMatchObject({ id, name, startsOn: '2030-03-01', endsOn: '2030-03-03', hotline: null });
    const settings = (await call(null, 'GET', '/api/settings/event')).json().data;
    expect(settings).toMatchObject({ name, startsOn: '2030-03-01', endsOn: '2030-03-03', hotline: null });
    expect(settings.updatedAt).not.toBeNull();
    // A change made as an edition shows in the settings too (the editions list is answer-cached).
    const renamed = named('Warriors of the South');
    expect((await call(admin, 'PATCH', `/api/admin/editions/${id}`, { name: renamed })).statusCode).toBe(200);
    expect((await call(null, 'GET', '/api/settings/event')).json().data.name).toBe(renamed);
    expect((await current()).name).toBe(renamed);

    const pending = await registerRider(t.app);
    const profile = (actor: Actor) => call(actor, 'GET', '/api/auth/profile');
    expect((await profile(pending)).json().data.user.stats.eventsParticipated).toBe(0);
    const verified = await approvedRider(t.app, admin);
    expect((await profile(verified)).json().data.user.stats.eventsParticipated).toBe(1);
  });
});
