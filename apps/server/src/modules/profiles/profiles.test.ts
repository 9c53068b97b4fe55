import { COMMENTS_PAGE_SIZE } from '@rally/shared/catalog/web-client';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activities } from '../../db/schema/activities';
import { comments } from '../../db/schema/social';
import { buildTestApp, DB_KINDS, type TestApp } from '../../test/build-app';
import { deactivate, markVerified, operatorParticipant, verifiedRider } from '../../test/community-factories';
import { bearer, registerRider } from '../../test/factories';
import { firstRow } from '../../test/present';

const PRIVATE_FIELDS = [
  'email',
  'phoneNumber',
  'address',
  'birthdate',
  'emergencyContactName',
  'emergencyContactNumber',
  'paymentMethod',
  'paymentAmount',
  'verificationCode',
  'riderCode',
  'passwordHash',
];

describe.each(DB_KINDS)('profiles, fire and comments (%s)', (kind) => {
  let t: TestApp;
  let a: Awaited<ReturnType<typeof verifiedRider>>;
  let b: Awaited<ReturnType<typeof verifiedRider>>;

  beforeAll(async () => {
    t = await buildTestApp(kind);
    a = await verifiedRider(t.app, t.database.db, { kitName: 'AGILA NG SILANGAN', firstName: 'Agila' });
    b = await verifiedRider(t.app, t.database.db, {
      kitName: '',
      firstName: 'Bituin',
      gender: 'female',
      category: 'lakambini',
    });
  });
  afterAll(() => t.close());

  const inject = (method: 'GET' | 'POST', url: string, token?: string, payload?: unknown) =>
    t.app.inject({ method, url, headers: token ? bearer(token) : {}, payload: payload as never });

  describe('GET /users/:id/profile', () => {
    it('shows public fields only', async () => {
      const res = await inject('GET', `/api/users/${a.userId}/profile`);
      expect(res.statusCode).toBe(200);
      const { data } = res.json();
      expect(data).toMatchObject({
        id: a.userId,
        firstName: 'Agila',
        kitName: 'AGILA NG SILANGAN',
        role: 'participant',
        riderNumber: a.riderNumber,
        category: 'bagani',
        gender: 'male',
        bikeInfo: { model: 'Honda ADV 160', category: 'bagani' },
        verificationStatus: 'verified',
        hasProfileImage: true,
        stats: { fires: 0, comments: 0 },
      });
      expect(typeof data.createdAt).toBe('string');
      for (const field of PRIVATE_FIELDS) expect(data).not.toHaveProperty(field);
      // Nothing private hides anywhere in the body either (e.g. nested).
      for (const secret of [
        a.email,
        a.verificationCode,
        a.riderCode,
        '09171234567',
        'Davao City',
        '1990-05-17',
        'Amihan Rider',
      ]) {
        expect(res.body).not.toContain(secret);
      }
    });

    it('is the same for a signed-in viewer', async () => {
      const res = await inject('GET', `/api/users/${a.userId}/profile`, b.token);
      expect(res.statusCode).toBe(200);
      for (const field of PRIVATE_FIELDS) expect(res.json().data).not.toHaveProperty(field);
    });

    it('answers 404 for unknown, malformed and inactive users', async () => {
      const unknown = await inject('GET', '/api/users/00000000-0000-4000-8000-000000000000/profile');
      expect(unknown.statusCode).toBe(404);
      expect(unknown.json()).toMatchObject({ success: false, message: 'User not found' });
      for (const bad of ['not-a-uuid', '1', "x'%20or%201=1--", 'demo', 'a'.repeat(150)]) {
        const res = await inject('GET', `/api/users/${bad}/profile`);
        expect(res.statusCode, bad).toBe(404);
        expect(res.json().message).toBe('User not found');
      }
      const gone = await registerRider(t.app);
      await deactivate(t.database.db, gone.userId);
      const inactive = await inject('GET', `/api/users/${gone.userId}/profile`);
      expect(inactive.statusCode).toBe(404);
      expect(inactive.json().message).toBe('User not found');
    });
  });

  describe('fire', () => {
    it('is counted on the server, once per giver, and recorded', async () => {
      const target = await verifiedRider(t.app, t.database.db);
      const status0 = await inject('GET', `/api/users/${target.userId}/fire/status`, a.token);
      expect(status0.json().data).toEqual({ hasGivenFire: false, totalFires: 0 });

      const first = await inject('POST', `/api/users/${target.userId}/fire`, a.token);
      expect(first.statusCode).toBe(200);
      expect(first.json().data).toEqual({ hasGivenFire: true, totalFires: 1 });

      const second = await inject('POST', `/api/users/${target.userId}/fire`, b.token);
      expect(second.json().data.totalFires).toBe(2);

      const again = await inject('POST', `/api/users/${target.userId}/fire`, a.token);
      expect(again.statusCode).toBe(409);
      expect(again.json().message).toMatch(/already gave fire/i);

      const statusA = await inject('GET', `/api/users/${target.userId}/fire/status`, a.token);
      expect(statusA.json().data).toEqual({ hasGivenFire: true, totalFires: 2 });
      const anonymous = await inject('GET', `/api/users/${target.userId}/fire/status`);
      expect(anonymous.json().data).toEqual({ hasGivenFire: false, totalFires: 2 });
      const profile = await inject('GET', `/api/users/${target.userId}/profile`);
      expect(profile.json().data.stats.fires).toBe(2);

      const logged = await t.database.db
        .select()
        .from(activities)
        .where(and(eq(activities.type, 'fire_earned'), eq(activities.userId, target.userId)));
      expect(logged).toHaveLength(2);
      expect(logged.map((l) => l.actorId).sort()).toEqual([a.userId, b.userId].sort());
    });

    it('refuses fire to oneself', async () => {
      const res = await inject('POST', `/api/users/${a.userId}/fire`, a.token);
      expect(res.statusCode).toBe(400);
      expect(res.json().message).toBe("You can't give fire to yourself! 🤔");
      const status = await inject('GET', `/api/users/${a.userId}/fire/status`);
      expect(status.json().data.totalFires).toBe(0);
    });

    it('needs a signed-in, verified rider', async () => {
      const anonymous = await inject('POST', `/api/users/${b.userId}/fire`);
      expect(anonymous.statusCode).toBe(401);
      const pending = await registerRider(t.app);
      const refused = await inject('POST', `/api/users/${b.userId}/fire`, pending.token);
      expect(refused.statusCode).toBe(403);
      const status = await inject('GET', `/api/users/${b.userId}/fire/status`, pending.token);
      expect(status.json().data.hasGivenFire).toBe(false);
    });

    it('answers 404 for unknown, malformed and inactive targets', async () => {
      const gone = await verifiedRider(t.app, t.database.db);
      await deactivate(t.database.db, gone.userId);
      for (const id of ['00000000-0000-4000-8000-000000000000', 'nope', gone.userId]) {
        const give = await inject('POST', `/api/users/${id}/fire`, a.token);
        expect(give.statusCode, id).toBe(404);
        expect(give.json().message).toBe('User not found');
        const status = await inject('GET', `/api/users/${id}/fire/status`);
        expect(status.statusCode, id).toBe(404);
      }
    });

    it('works for operator-created accounts, which are verified', async () => {
      const op = await operatorParticipant(t.app, t.database.db);
      const res = await inject('POST', `/api/users/${b.userId}/fire`, op.token);
      expect(res.statusCode).toBe(200);
      expect(res.json().data.hasGivenFire).toBe(true);
    });
  });

  describe('comments', () => {
    it('adds a comment and returns it in the Comment shape', async () => {
      const res = await inject('POST', `/api/users/${b.userId}/comments`, a.token, {
        comment: '  Ride safe, warrior!  ',
      });
      expect(res.statusCode).toBe(201);
      const { data } = res.json();
      expect(data).toEqual({
        id: expect.any(String),
        authorId: a.userId,
        author: 'AGILA NG SILANGAN',
        authorRank: 'participant',
        text: 'Ride safe, warrior!',
        timestamp: expect.any(String),
      });
      expect(Number.isNaN(Date.parse(data.timestamp))).toBe(false);
      const logged = await t.database.db
        .select()
        .from(activities)
        .where(and(eq(activities.type, 'comment_added'), eq(activities.userId, b.userId)));
      expect(logged.length).toBeGreaterThanOrEqual(1);
      expect(firstRow(logged).actorId).toBe(a.userId);
      const profile = await inject('GET', `/api/users/${b.userId}/profile`);
      expect(profile.json().data.stats.comments).toBeGreaterThanOrEqual(1);
    });

    it('names authors without a kit name by their full name', async () => {
      const res = await inject('POST', `/api/users/${a.userId}/comments`, b.token, { comment: 'See you at Marilog' });
      expect(res.statusCode).toBe(201);
      expect(res.json().data.author).toMatch(/^Bituin Rider/);
    });

    it('refuses blank, missing, non-text and over-1-MB comments and stores nothing', async () => {
      const before = await t.database.db.select().from(comments).where(eq(comments.targetUserId, b.userId));
      for (const payload of [{ comment: '' }, { comment: '   \n\t ' }, {}, { comment: 42 }]) {
        const res = await inject('POST', `/api/users/${b.userId}/comments`, a.token, payload);
        expect(res.statusCode, JSON.stringify(payload)).toBe(400);
        expect(res.json().message).toBe('Comment cannot be empty');
      }
      // No length limit (none is set): only the 1 MB request body limit bounds a comment.
      const long = await inject('POST', `/api/users/${b.userId}/comments`, a.token, { comment: 'y'.repeat(50_000) });
      expect(long.statusCode, long.body).toBe(201);
      expect(long.json().data.text).toHaveLength(50_000);
      const huge = await inject('POST', `/api/users/${b.userId}/comments`, a.token, { comment: 'x'.repeat(1_100_000) });
      expect(huge.statusCode).toBe(413);
      const after = await t.database.db.select().from(comments).where(eq(comments.targetUserId, b.userId));
      expect(after.length).toBe(before.length + 1);
    });

    it('refuses a comment on one’s own profile', async () => {
      const res = await inject('POST', `/api/users/${a.userId}/comments`, a.token, { comment: 'I am great' });
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toBe('You cannot comment on your own profile');
    });

    it('needs a signed-in, verified rider and an active target', async () => {
      const anonymous = await inject('POST', `/api/users/${b.userId}/comments`, undefined, { comment: 'hi' });
      expect(anonymous.statusCode).toBe(401);
      const pending = await registerRider(t.app);
      const refused = await inject('POST', `/api/users/${b.userId}/comments`, pending.token, { comment: 'hi' });
      expect(refused.statusCode).toBe(403);
      const gone = await verifiedRider(t.app, t.database.db);
      await deactivate(t.database.db, gone.userId);
      for (const id of ['00000000-0000-4000-8000-000000000000', 'bad-id', gone.userId]) {
        const res = await inject('POST', `/api/users/${id}/comments`, a.token, { comment: 'hi' });
        expect(res.statusCode, id).toBe(404);
        expect(res.json().message).toBe('User not found');
        const list = await inject('GET', `/api/users/${id}/comments`);
        expect(list.statusCode, id).toBe(404);
      }
    });

    it('lists a profile’s comments newest first, paginated by limit and offset', async () => {
      const target = await verifiedRider(t.app, t.database.db);
      const texts = Array.from({ length: 25 }, (_, i) => `Support #${i + 1}`);
      for (const text of texts) {
        const res = await inject('POST', `/api/users/${target.userId}/comments`, a.token, { comment: text });
        expect(res.statusCode).toBe(201);
      }
      const newestFirst = [...texts].reverse();

      const page1 = await inject('GET', `/api/users/${target.userId}/comments`);
      expect(page1.statusCode).toBe(200);
      const d1 = page1.json().data;
      expect(d1.total).toBe(25);
      expect(d1.limit).toBe(COMMENTS_PAGE_SIZE);
      expect(d1.offset).toBe(0);
      expect(d1.comments.map((c: { text: string }) => c.text)).toEqual(newestFirst.slice(0, 20));
      expect(d1.comments[0]).toEqual({
        id: expect.any(String),
        authorId: a.userId,
        author: 'AGILA NG SILANGAN',
        authorRank: 'participant',
        text: 'Support #25',
        timestamp: expect.any(String),
      });

      const page2 = await inject('GET', `/api/users/${target.userId}/comments?limit=10&offset=20`);
      const d2 = page2.json().data;
      expect(d2.comments.map((c: { text: string }) => c.text)).toEqual(newestFirst.slice(20));
      expect(d2).toMatchObject({ total: 25, limit: 10, offset: 20 });

      const middle = await inject('GET', `/api/users/${target.userId}/comments?limit=3&offset=5`);
      expect(middle.json().data.comments.map((c: { text: string }) => c.text)).toEqual(newestFirst.slice(5, 8));

      const beyond = await inject('GET', `/api/users/${target.userId}/comments?offset=100`);
      expect(beyond.json().data).toMatchObject({ comments: [], total: 25 });
    });

    it('refuses bad pagination values with a message naming the field', async () => {
      for (const [query, field] of [
        ['limit=0', 'limit'],
        ['limit=101', 'limit'],
        ['limit=abc', 'limit'],
        ['offset=-1', 'offset'],
        ['offset=1.5', 'offset'],
      ]) {
        const res = await inject('GET', `/api/users/${b.userId}/comments?${query}`);
        expect(res.statusCode, query).toBe(400);
        expect(res.json().message).toContain(field);
      }
      const max = await inject('GET', `/api/users/${b.userId}/comments?limit=100`);
      expect(max.statusCode).toBe(200);
    });
  });

  describe('GET /my/comments', () => {
    it('lists the rider’s own comments with their targets, newest first', async () => {
      const writer = await verifiedRider(t.app, t.database.db);
      const first = await inject('POST', `/api/users/${a.userId}/comments`, writer.token, { comment: 'First!' });
      expect(first.statusCode).toBe(201);
      const second = await inject('POST', `/api/users/${b.userId}/comments`, writer.token, { comment: 'Second!' });
      expect(second.statusCode).toBe(201);

      const res = await inject('GET', '/api/my/comments', writer.token);
      expect(res.statusCode).toBe(200);
      const { data } = res.json();
      expect(data.total).toBe(2);
      expect(data.comments).toEqual([
        {
          id: second.json().data.id,
          commentedOnUser: expect.stringMatching(/^Bituin Rider/),
          commentedOnUserKitName: null,
          commentedOnUserRank: 'participant',
          commentedOnUserId: b.userId,
          text: 'Second!',
          timestamp: expect.any(String),
        },
        {
          id: first.json().data.id,
          commentedOnUser: expect.stringMatching(/^Agila Rider/),
          commentedOnUserKitName: 'AGILA NG SILANGAN',
          commentedOnUserRank: 'participant',
          commentedOnUserId: a.userId,
          text: 'First!',
          timestamp: expect.any(String),
        },
      ]);

      const paged = await inject('GET', '/api/my/comments?limit=1&offset=1', writer.token);
      expect(paged.json().data.comments.map((c: { text: string }) => c.text)).toEqual(['First!']);
    });

    it('is empty for a rider who wrote nothing, and needs sign-in', async () => {
      const quiet = await registerRider(t.app);
      const res = await inject('GET', '/api/my/comments', quiet.token);
      expect(res.json().data).toEqual({ comments: [], total: 0, limit: 20, offset: 0 });
      expect((await inject('GET', '/api/my/comments')).statusCode).toBe(401);
    });
  });

  it('lets a newly verified rider take part', async () => {
    const late = await registerRider(t.app);
    expect((await inject('POST', `/api/users/${a.userId}/fire`, late.token)).statusCode).toBe(403);
    await markVerified(t.database.db, late.userId);
    expect((await inject('POST', `/api/users/${a.userId}/fire`, late.token)).statusCode).toBe(200);
  });
});
