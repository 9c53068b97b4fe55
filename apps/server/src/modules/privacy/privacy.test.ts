// Consent on record (DESIGN.md §12): the published notice and its versions, the organiser's
// publication, the notice accepted at registration and at the re-ask, and the optional
// purposes, each withdrawn with effect at once and given back.
import { randomBytes } from 'node:crypto';
import { TRACKING_CONSENT_VERSION } from '@rally/shared/catalog/tracking';
import { and, count, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseMessages } from '../../config';
import { activities } from '../../db/schema/activities';
import { followers, outboxMessages } from '../../db/schema/messages';
import { consents, privacyNotices } from '../../db/schema/privacy';
import { users } from '../../db/schema/users';
import { buildTestApp, DB_KINDS, openTestDatabase, type TestApp, useTestApp } from '../../test/build-app';
import {
  type Actor,
  approvedRider,
  injectAs,
  joinEdition,
  multipart,
  registerRider,
  registrationFields,
  registrationFiles,
  rollOver,
  staff,
} from '../../test/factories';
import { notifyFollowers } from '../messages/notify';
import { WITHDRAWN_ANSWER } from './my-consents.service';
import { currentNotice } from './notice.service';

describe.each(DB_KINDS)('consent on record (%s)', (kind) => {
  let t: TestApp;
  let admin: Actor;
  let marshall: Actor;
  let officer: Actor;

  beforeAll(async () => {
    t = await buildTestApp(kind, {
      // Email on (so followers can be messaged) but no worker sends: the rows stay readable.
      messages: parseMessages({
        SMTP_URL: 'smtp://127.0.0.1:9',
        MAIL_FROM: 'rally@example.test',
        MESSAGE_WORKER: 'off',
      }),
    });
    admin = await staff(t.app, t.database.db, 'admin');
    marshall = await staff(t.app, t.database.db, 'marshall');
    officer = await staff(t.app, t.database.db, 'officer');
  });
  afterAll(async () => {
    await t?.close();
  });

  const as = (actor: Actor | null, method: 'GET' | 'PUT' | 'POST', url: string, body?: unknown) =>
    injectAs(t.app, actor, method, url, body);
  const currentVersion = async (): Promise<number> =>
    (await as(null, 'GET', '/api/privacy/notice')).json().data.version;
  const texts = (tag: string) => ({
    privacyText: `# Privacy notice ${tag}\n\nWe keep what we need to run the rally.`,
    termsText: `## 1. Participation ${tag}\n\n- Ride safe and follow the marshalls.`,
  });
  const publish = async (body: { privacyText: string; termsText: string }) => {
    const res = await as(admin, 'PUT', '/api/admin/privacy/notice', body);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as { version: number };
  };
  const noticeRows = async () => Number((await t.database.db.select({ n: count() }).from(privacyNotices))[0]?.n);
  const myConsents = async (rider: Actor) => {
    const res = await as(rider, 'GET', '/api/my/consents');
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data;
  };
  const setPurpose = (rider: Actor, purpose: string, body: Record<string, unknown>) =>
    as(rider, 'PUT', `/api/my/consents/${purpose}`, body);

  it('publishes version 1 with the default texts, to anyone', async () => {
    const res = await as(null, 'GET', '/api/privacy/notice?version=1');
    expect(res.statusCode, res.body).toBe(200);
    const notice = res.json().data;
    expect(notice).toMatchObject({ version: 1, privacy: { version: 1 }, terms: { version: 1 } });
    expect(notice.privacy.text).toContain('**Privacy notice: [Rally name] [year]**');
    expect(notice.privacy.text).not.toContain('> ');
    expect(notice.terms.text).toMatch(/^## 1\. Participation\n\n- The /);
    expect(notice.terms.text).toContain('## 8. Insurance');
    expect((await as(null, 'GET', '/api/privacy/notice?version=99999')).statusCode).toBe(404);
  });

  it('publishes a new version for manage_event only, refusing the same texts and bad bodies', async () => {
    const before = await currentVersion();
    const rows = await noticeRows();
    const rider = await registerRider(t.app);
    const body = texts(randomBytes(4).toString('hex'));
    for (const actor of [marshall, officer, rider])
      expect((await as(actor, 'PUT', '/api/admin/privacy/notice', body)).statusCode).toBe(403);
    expect((await as(null, 'PUT', '/api/admin/privacy/notice', body)).statusCode).toBe(401);
    for (const bad of [
      {},
      { privacyText: 'short', termsText: body.termsText },
      { privacyText: body.privacyText },
      { privacyText: 42, termsText: body.termsText },
      { privacyText: 'x'.repeat(50_001), termsText: body.termsText },
      { privacyText: `${body.privacyText}\u0000`, termsText: body.termsText },
    ]) {
      const res = await as(admin, 'PUT', '/api/admin/privacy/notice', bad);
      expect(res.statusCode, res.body).toBe(400);
    }
    expect(await noticeRows()).toBe(rows);
    expect(await currentVersion()).toBe(before);

    const published = await publish(body);
    expect(published.version).toBeGreaterThan(before);
    const again = await as(admin, 'PUT', '/api/admin/privacy/notice', body);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'NOTICE_UNCHANGED' });
    expect(again.json().message).toContain(`version ${published.version}`);

    // Only the terms change: the privacy text still names the publication that last changed it.
    const termsOnly = await publish({ ...body, termsText: `${body.termsText}\n- Bring water.` });
    const current = (await as(null, 'GET', '/api/privacy/notice')).json().data;
    expect(current).toMatchObject({
      version: termsOnly.version,
      privacy: { version: published.version, text: body.privacyText },
      terms: { version: termsOnly.version },
    });
    const [row] = await t.database.db
      .select()
      .from(privacyNotices)
      .where(eq(privacyNotices.version, termsOnly.version));
    expect(row).toMatchObject({ publishedBy: admin.userId });
    expect(row?.publishedByName).toBeTruthy();
    // On the log as what it is.
    const logged = await t.database.db
      .select({ actorId: activities.actorId, description: activities.description })
      .from(activities)
      .where(eq(activities.type, 'privacy_notice_published'));
    expect(logged).toEqual(
      expect.arrayContaining([
        { actorId: admin.userId, description: expect.stringContaining(`version ${termsOnly.version}`) },
      ]),
    );
    // The old version stays readable.
    const first = (await as(null, 'GET', '/api/privacy/notice?version=1')).json().data;
    expect(first.privacy.text).toContain('[Rally name]');
  });

  it('records the notice accepted at registration, and refuses a stale version creating nothing', async () => {
    const version = await currentVersion();
    const rider = await registerRider(t.app, { consentVersion: String(version) });
    const mine = await myConsents(rider);
    expect(mine.notice).toMatchObject({ currentVersion: version, accepted: { version, screen: 'registration' } });
    expect(mine.notice.needed).toBe(false);

    const json = registrationFields();
    const viaJson = await as(null, 'POST', '/api/auth/register', { ...json, consentVersion: version });
    expect(viaJson.statusCode, viaJson.body).toBe(201);
    const [jsonRow] = await t.database.db
      .select()
      .from(consents)
      .where(eq(consents.userId, viaJson.json().data.user.id));
    expect(jsonRow).toMatchObject({ purpose: 'notice', given: true, version: String(version), screen: 'registration' });

    await publish(texts(randomBytes(4).toString('hex')));
    const fields = registrationFields({ consentVersion: String(version) });
    const stale = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register-with-uploads',
      ...multipart(fields, await registrationFiles()),
    });
    expect(stale.statusCode, stale.body).toBe(409);
    expect(stale.json()).toMatchObject({ code: 'CONSENT_REQUIRED' });
    expect(stale.json().message).toContain(`version ${await currentVersion()}`);
    const staleFields = registrationFields();
    const staleJson = await as(null, 'POST', '/api/auth/register', { ...staleFields, consentVersion: version });
    expect(staleJson.statusCode).toBe(409);
    for (const email of [fields.email, staleFields.email]) {
      const [n] = await t.database.db
        .select({ n: count() })
        .from(users)
        .where(sql`lower(${users.email}) = lower(${email ?? ''})`);
      expect(Number(n?.n)).toBe(0);
    }

    // Without it, nothing is recorded: the rider is asked on their next screen.
    const unasked = await registerRider(t.app);
    expect((await myConsents(unasked)).notice).toMatchObject({ accepted: null, needed: true });
  });

  it('asks again after a new version, until the rider accepts it', async () => {
    const rider = await registerRider(t.app, { consentVersion: String(await currentVersion()) });
    expect((await myConsents(rider)).notice.needed).toBe(false);
    const old = await currentVersion();
    const next = await publish(texts(randomBytes(4).toString('hex')));
    expect((await myConsents(rider)).notice).toMatchObject({ needed: true, currentVersion: next.version });

    const stale = await as(rider, 'PUT', '/api/my/consents/notice', { version: old });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ code: 'CONSENT_REQUIRED' });
    expect(stale.json().message).toContain(`version ${next.version}`);
    expect((await as(rider, 'PUT', '/api/my/consents/notice', { version: 'two' })).statusCode).toBe(400);

    const accepted = await as(rider, 'PUT', '/api/my/consents/notice', { version: next.version });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json().data.notice).toMatchObject({
      needed: false,
      accepted: { version: next.version, screen: 'sign-in' },
    });
    // Accepting again adds no row.
    await as(rider, 'PUT', '/api/my/consents/notice', { version: next.version });
    expect((await myConsents(rider)).history.filter((r: { purpose: string }) => r.purpose === 'notice')).toHaveLength(
      2,
    );
    // The version the rider accepted first is still there to read.
    const first = (await as(null, 'GET', `/api/privacy/notice?version=${old}`)).json().data;
    expect(first.version).toBe(old);
  });

  it('public_profile withdrawn: the profile, fire and comments are "not found" to all but the rider', async () => {
    const kitName = `HIDDEN ${randomBytes(3).toString('hex').toUpperCase()}`;
    const rider = await approvedRider(t.app, admin, { kitName });
    const other = await approvedRider(t.app, admin);
    expect((await as(null, 'GET', '/api/live')).body).toContain(kitName);
    const paths = [
      `/api/users/${rider.userId}/profile`,
      `/api/users/${rider.userId}/fire/status`,
      `/api/users/${rider.userId}/comments`,
    ];
    for (const path of paths) expect((await as(null, 'GET', path)).statusCode).toBe(200);

    const off = await setPurpose(rider, 'public_profile', { given: false });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json().data.purposes).toContainEqual(
      expect.objectContaining({ purpose: 'public_profile', given: false, chosen: true, screen: 'my-profile' }),
    );
    for (const viewer of [null, other, admin])
      for (const path of paths) {
        const res = await as(viewer, 'GET', path);
        expect([path, res.statusCode]).toEqual([path, 404]);
        expect(res.json().message).toBe('User not found');
      }
    const fire = await as(other, 'POST', `/api/users/${rider.userId}/fire`);
    expect(fire.statusCode).toBe(404);
    const comment = await as(other, 'POST', `/api/users/${rider.userId}/comments`, { comment: 'Go!' });
    expect(comment.statusCode).toBe(404);
    // The rider still sees their own.
    expect((await as(rider, 'GET', paths[0] as string)).statusCode).toBe(200);
    expect((await as(rider, 'GET', paths[2] as string)).statusCode).toBe(200);
    // The live tracker lists them by number only.
    const live = (await as(null, 'GET', '/api/live')).body;
    expect(live).not.toContain(kitName);
    expect(live).toContain(`"riderNumber":${rider.riderNumber},"kitName":"Rider ${rider.riderNumber}"`);

    const on = await setPurpose(rider, 'public_profile', { given: true });
    expect(on.statusCode).toBe(200);
    for (const path of paths) expect((await as(null, 'GET', path)).statusCode).toBe(200);
    expect((await as(other, 'POST', `/api/users/${rider.userId}/fire`)).statusCode).toBe(200);
  });

  it('followers withdrawn: no new follower, existing ones hear nothing, and still listed for removal', async () => {
    const rider = await approvedRider(t.app, admin);
    const email = `kin.${randomBytes(4).toString('hex')}@example.com`;
    await t.database.db
      .insert(followers)
      .values({ riderId: rider.userId, email, tokenHash: randomBytes(16).toString('hex'), confirmedAt: new Date() });
    const passage = () =>
      t.database.db.transaction((tx) =>
        notifyFollowers(
          tx,
          t.app.messenger,
          [rider.userId],
          'follower_passage',
          new Map([[rider.userId, { riderName: 'Datu', station: 'CP1' }]]),
        ),
      );
    expect(await passage()).toBe(1);
    const queued = () =>
      t.database.db
        .select({ status: outboxMessages.status, providerAnswer: outboxMessages.providerAnswer })
        .from(outboxMessages)
        .innerJoin(followers, eq(followers.id, outboxMessages.followerId))
        .where(eq(followers.riderId, rider.userId));

    expect((await setPurpose(rider, 'followers', { given: false })).statusCode).toBe(200);
    // What was queued and not sent yet is not sent: nothing more reaches them.
    for (const m of await queued())
      expect(m.status === 'sent' || m.providerAnswer === WITHDRAWN_ANSWER, JSON.stringify(m)).toBe(true);
    expect((await queued()).filter((m) => m.status === 'pending')).toEqual([]);
    const refused = await as(null, 'POST', `/api/follow/${rider.userId}`, { email: 'new.kin@example.com' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ message: 'This rider does not accept followers' });
    expect(await passage()).toBe(0);
    const listed = await as(rider, 'GET', '/api/my/followers');
    expect(listed.statusCode).toBe(200);
    expect(listed.json().data).toHaveLength(1);

    expect((await setPurpose(rider, 'followers', { given: true })).statusCode).toBe(200);
    expect((await as(null, 'POST', `/api/follow/${rider.userId}`, { email: 'new.kin@example.com' })).statusCode).toBe(
      202,
    );
    expect(await passage()).toBe(1);
  });

  it('public_photo withdrawn: the picture is gone to others, kept for the rider and staff', async () => {
    const rider = await approvedRider(t.app, admin);
    const other = await approvedRider(t.app, admin);
    const image = (viewer: Actor | null, route: 'public' | 'upload') =>
      as(viewer, 'GET', `/api/${route === 'public' ? 'public' : 'upload'}/profile-image/${rider.userId}`);
    const profile = async (viewer: Actor | null) =>
      (await as(viewer, 'GET', `/api/users/${rider.userId}/profile`)).json().data.hasProfileImage;
    expect((await image(null, 'public')).statusCode).toBe(200);
    expect(await profile(null)).toBe(true);

    expect((await setPurpose(rider, 'public_photo', { given: false })).statusCode).toBe(200);
    for (const [viewer, route] of [
      [null, 'public'],
      [other, 'public'],
      [other, 'upload'],
    ] as const) {
      const res = await image(viewer, route);
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe('Profile image not found');
    }
    expect(await profile(null)).toBe(false);
    expect(await profile(other)).toBe(false);
    expect((await image(rider, 'upload')).statusCode).toBe(200);
    expect((await image(admin, 'upload')).statusCode).toBe(200);
    expect((await image(marshall, 'public')).statusCode).toBe(200);
    expect(await profile(rider)).toBe(true);

    expect((await setPurpose(rider, 'public_photo', { given: true })).statusCode).toBe(200);
    expect((await image(null, 'public')).statusCode).toBe(200);
    expect(await profile(null)).toBe(true);
  });

  it('tracking: given turns the tracker on (with the consent read), withdrawn turns it off', async () => {
    const rider = await approvedRider(t.app, admin);
    const tracking = async () => (await as(rider, 'GET', '/api/my/tracking')).json().data.enabled;
    const stale = await setPurpose(rider, 'tracking', { given: true, version: '2000-01-01' });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ code: 'CONSENT_REQUIRED' });
    expect(await tracking()).toBe(false);

    const on = await setPurpose(rider, 'tracking', { given: true, version: TRACKING_CONSENT_VERSION });
    expect(on.statusCode, on.body).toBe(200);
    expect(on.json().data.purposes).toContainEqual(expect.objectContaining({ purpose: 'tracking', given: true }));
    expect(await tracking()).toBe(true);
    const off = await setPurpose(rider, 'tracking', { given: false });
    expect(off.json().data.purposes).toContainEqual(expect.objectContaining({ purpose: 'tracking', given: false }));
    expect(await tracking()).toBe(false);

    // PUT /api/my/tracking records its consent too.
    const viaCard = await as(rider, 'PUT', '/api/my/tracking', {
      enabled: true,
      consentVersion: TRACKING_CONSENT_VERSION,
    });
    expect(viaCard.statusCode).toBe(200);
    const rows = await t.database.db
      .select()
      .from(consents)
      .where(and(eq(consents.userId, rider.userId), eq(consents.purpose, 'tracking')));
    expect(rows.map((r) => [r.given, r.screen, r.version]).sort()).toEqual(
      [
        [true, 'my-profile', TRACKING_CONSENT_VERSION],
        [false, 'my-profile', null],
        [true, 'tracking', TRACKING_CONSENT_VERSION],
      ].sort(),
    );
    // A rider whose entry is not verified cannot turn it on from My Profile either.
    const pending = await registerRider(t.app);
    const refused = await setPurpose(pending, 'tracking', { given: true, version: TRACKING_CONSENT_VERSION });
    expect(refused.statusCode).toBe(403);
    expect((await setPurpose(pending, 'unknown', { given: true })).statusCode).toBe(400);
  });

  it('lists every change, newest first', async () => {
    const rider = await registerRider(t.app, { consentVersion: String(await currentVersion()) });
    await setPurpose(rider, 'public_profile', { given: false });
    await setPurpose(rider, 'public_photo', { given: false });
    await setPurpose(rider, 'public_profile', { given: true });
    // The same choice again is no change.
    await setPurpose(rider, 'public_profile', { given: true });
    const { history, purposes } = await myConsents(rider);
    expect(history.map((r: { purpose: string; given: boolean }) => [r.purpose, r.given])).toEqual([
      ['public_profile', true],
      ['public_photo', false],
      ['public_profile', false],
      ['notice', true],
    ]);
    const times = history.map((r: { at: string }) => Date.parse(r.at));
    expect([...times].sort((a, b) => b - a)).toEqual(times);
    expect(purposes).toEqual([
      expect.objectContaining({ purpose: 'public_profile', given: true, chosen: true }),
      { purpose: 'followers', given: true, chosen: false, at: null, screen: null },
      { purpose: 'tracking', given: false, chosen: false, at: null, screen: null },
      expect.objectContaining({ purpose: 'public_photo', given: false, chosen: true }),
    ]);
  });
});

describe.each(DB_KINDS)('the first notice (%s)', (kind) => {
  it('is made once, however many ask for it at the same moment', async () => {
    const opened = await openTestDatabase(kind);
    try {
      const db = opened.database.db;
      await db.delete(privacyNotices);
      const made = await Promise.all(Array.from({ length: 8 }, () => currentNotice(db)));
      expect(new Set(made.map((n) => n.version)).size).toBe(1);
      expect(Number((await db.select({ n: count() }).from(privacyNotices))[0]?.n)).toBe(1);
    } finally {
      await opened.drop();
    }
  });
});

describe.each(DB_KINDS)('consent on joining an edition (%s)', (kind) => {
  const t = useTestApp(kind, 'admin');

  it('records the notice accepted with the entry, and refuses a stale version entering nothing', async () => {
    const rider = await approvedRider(t.app, t.staff.admin);
    await rollOver(t.app, t.staff.admin);
    const notice = (await injectAs(t.app, null, 'GET', '/api/privacy/notice')).json().data.version as number;
    const published = await injectAs(t.app, t.staff.admin, 'PUT', '/api/admin/privacy/notice', {
      privacyText: 'A newer privacy notice for the new edition.',
      termsText: 'Newer terms for the new edition, to be read.',
    });
    expect(published.statusCode, published.body).toBe(200);
    await expect(joinEdition(t.app, rider, { consentVersion: String(notice) })).rejects.toThrow(
      /409.*CONSENT_REQUIRED/,
    );
    const entered = await injectAs(t.app, rider, 'GET', '/api/my/entries/next');
    expect(entered.json().data.entered).toBe(false);

    await joinEdition(t.app, rider, { consentVersion: String(published.json().data.version) });
    const [row] = await t.database.db
      .select()
      .from(consents)
      .where(and(eq(consents.userId, rider.userId), eq(consents.screen, 'join')));
    expect(row).toMatchObject({ purpose: 'notice', given: true, version: String(published.json().data.version) });
  });
});
