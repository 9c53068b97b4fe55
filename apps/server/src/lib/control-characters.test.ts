// Issue 16: a NUL byte in a text field made PostgreSQL fail the statement and the API
// answer 500. Every request is checked centrally now; these cases pin the rule down on
// both databases.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, DB_KINDS, type TestApp } from '../test/build-app';
import { approvedRider, bearer, multipart, registrationFields, registrationFiles, staff } from '../test/factories';

describe.each(DB_KINDS)('control characters in text on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(kind);
  });
  afterAll(() => t.close());

  it('refuses a NUL in clubName on POST /api/auth/register with a 400 naming the field', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: registrationFields({ clubName: 'Davao\u0000Riders' }),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({
      success: false,
      code: 'CONTROL_CHARACTERS',
      message: 'clubName must not contain control characters (found U+0000)',
    });
  });

  it('refuses control characters in multipart fields, and a newline in a one-line field', async () => {
    const nul = multipart(registrationFields({ address: 'Davao\u0000City' }), await registrationFiles());
    const res = await t.app.inject({ method: 'POST', url: '/api/auth/register-with-uploads', ...nul });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('address must not contain control characters (found U+0000)');
    const newline = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: registrationFields({ firstName: 'Datu\nRider' }),
    });
    expect(newline.statusCode).toBe(400);
    expect(newline.json().message).toBe('firstName must not contain control characters (found U+000A)');
  });

  it('refuses control characters in query strings and path parameters', async () => {
    const admin = await staff(t.app, t.database.db, 'admin');
    const search = await t.app.inject({
      method: 'GET',
      url: `/api/admin/users?search=${encodeURIComponent('a\u0000b')}`,
      headers: bearer(admin.token),
    });
    expect(search.statusCode).toBe(400);
    expect(search.json().message).toBe('search must not contain control characters (found U+0000)');
    const token = await t.app.inject({ method: 'GET', url: '/api/auth/reset-password/abc%00def' });
    expect(token.statusCode).toBe(400);
    expect(token.json().message).toBe('token must not contain control characters (found U+0000)');
  });

  it('keeps tab, newline and CR in multi-line fields (comments, notes, announcements) and refuses the rest', async () => {
    const admin = await staff(t.app, t.database.db, 'admin');
    const author = await approvedRider(t.app, admin);
    const subject = await approvedRider(t.app, admin);
    const ok = await t.app.inject({
      method: 'POST',
      url: `/api/users/${subject.userId}/comments`,
      headers: bearer(author.token),
      payload: { comment: 'Ride safe!\r\n\tSee you at the start.' },
    });
    expect(ok.statusCode).toBe(201);
    const bell = await t.app.inject({
      method: 'POST',
      url: `/api/users/${subject.userId}/comments`,
      headers: bearer(author.token),
      payload: { comment: 'Ride safe!\u0007' },
    });
    expect(bell.statusCode).toBe(400);
    expect(bell.json().message).toBe('comment must not contain control characters (found U+0007)');

    const announcement = await t.app.inject({
      method: 'POST',
      url: '/api/admin/announcements',
      headers: bearer(admin.token),
      payload: { title: 'Briefing', content: 'Line one\nLine two' },
    });
    expect(announcement.statusCode).toBe(201);
    const badTitle = await t.app.inject({
      method: 'POST',
      url: '/api/admin/announcements',
      headers: bearer(admin.token),
      payload: { title: 'Brief\ning', content: 'Line one' },
    });
    expect(badTitle.statusCode).toBe(400);
    expect(badTitle.json().message).toBe('title must not contain control characters (found U+000A)');

    const notes = await t.app.inject({
      method: 'PUT',
      url: `/api/admin/kit-tracking/${subject.userId}`,
      headers: bearer(admin.token),
      payload: { notes: 'Vest: XL\nShirt: L' },
    });
    expect(notes.statusCode).toBe(200);
    const bulk = await t.app.inject({
      method: 'POST',
      url: '/api/admin/kit-tracking/bulk-update',
      headers: bearer(admin.token),
      payload: {
        updates: [
          { user_id: subject.userId, notes: 'ok' },
          { user_id: author.userId, notes: 'x\u0000' },
        ],
      },
    });
    expect(bulk.statusCode).toBe(400);
    expect(bulk.json().message).toBe('updates[1].notes must not contain control characters (found U+0000)');
  });
});
