import { createHash } from 'node:crypto';
import { count, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { activities } from '../../db/schema/activities';
import { entries } from '../../db/schema/entries';
import { files } from '../../db/schema/files';
import { sessions } from '../../db/schema/sessions';
import { users } from '../../db/schema/users';
import { hashPassword } from '../../lib/passwords';
import { buildTestApp, DB_KINDS, type TestApp } from '../../test/build-app';
import { bearer, jpeg, multipart, png, registrationFields, registrationFiles } from '../../test/factories';
import { firstRow, present } from '../../test/present';
import { waitForFiles } from '../../test/wait-for-files';

// Spies that keep the real implementation: the contention test counts password hashes.
vi.mock('../../lib/passwords', { spy: true });

describe.each(DB_KINDS)('registration on %s', (kind) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(kind);
  });
  afterAll(() => t.close());

  const tableCounts = async () => {
    const db = t.database.db;
    const rowsIn = async (table: typeof users | typeof entries | typeof files | typeof sessions) =>
      firstRow(await db.select({ n: count() }).from(table)).n;
    const [u, v, f, s] = await Promise.all([rowsIn(users), rowsIn(entries), rowsIn(files), rowsIn(sessions)]);
    return { users: u, verifications: v, files: f, sessions: s };
  };

  const submit = async (fields: Record<string, string>, withFiles = true) =>
    t.app.inject({
      method: 'POST',
      url: '/api/auth/register-with-uploads',
      ...multipart(fields, withFiles ? await registrationFiles() : []),
    });

  it('registers with both files, answers the user with a verification code, and the rider can log in', async () => {
    const fields = registrationFields({ riderNumber: '17', gender: 'female', category: 'lakan-obr' });
    const res = await submit(fields);
    expect(res.statusCode).toBe(201);
    const body = res.json();
    expect(body.success).toBe(true);
    expect(body.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const user = body.data.user;
    expect(user.verificationCode).toMatch(/^WR-[0-9A-HJKMNP-TV-Z]{8}$/);
    expect(user).toMatchObject({
      email: fields.email,
      riderNumber: 17,
      category: 'lakan-obr',
      paymentAmount: 2500,
      verificationStatus: 'pending',
      role: 'participant',
      hasProfileImage: true,
      hasPaymentReceipt: true,
      riderCode: null,
    });
    expect(user).not.toHaveProperty('passwordHash');

    const login = await t.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { email: fields.email, password: fields.password },
    });
    expect(login.statusCode).toBe(200);
    const profile = await t.app.inject({
      method: 'GET',
      url: '/api/auth/profile',
      headers: bearer(login.json().token),
    });
    expect(profile.statusCode).toBe(200);
    expect(profile.json().data.user.verificationStatus).toBe('pending');
    expect(profile.json().data.user.verificationCode).toBe(user.verificationCode);

    const activity = firstRow(await t.database.db.select().from(activities).where(eq(activities.userId, user.id)));
    expect(activity.type).toBe('user_registration');

    // The files committed with the registration, once the file queue has processed them,
    // read back byte for byte as recorded.
    await waitForFiles(t.app);
    const stored = await t.database.db
      .select({ kind: files.kind, mimeType: files.mimeType, sizeBytes: files.sizeBytes, sha256: files.sha256 })
      .from(files)
      .where(eq(files.userId, user.id))
      .orderBy(files.kind);
    expect(stored.map((f) => f.kind)).toEqual(['profile_image', 'payment_receipt']);
    for (const f of stored) {
      const path = f.kind === 'profile_image' ? 'profile-image' : 'payment-receipt';
      const read = await t.app.inject({
        method: 'GET',
        url: `/api/upload/${path}/${user.id}`,
        headers: bearer(body.token),
      });
      expect(read.statusCode).toBe(200);
      expect(read.headers['content-type']).toContain(f.mimeType);
      expect(read.rawPayload.length).toBe(f.sizeBytes);
      expect(createHash('sha256').update(read.rawPayload).digest('hex')).toBe(f.sha256);
    }
  });

  it('computes the amount on the server and stores a man choosing lakambini as magani', async () => {
    const res = await submit(registrationFields({ gender: 'male', category: 'lakambini-obr', paymentAmount: '1' }));
    expect(res.statusCode).toBe(201);
    expect(res.json().data.user.category).toBe('magani-obr');
    expect(res.json().data.user.paymentAmount).toBe(2500);
  });

  it('accepts cash without a receipt, and refuses non-cash without one', async () => {
    const cash = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register-with-uploads',
      ...multipart(registrationFields({ paymentMethod: 'cash' }), [
        { field: 'profileImage', filename: 'profile.jpg', contentType: 'image/jpeg', data: await jpeg() },
      ]),
    });
    expect(cash.statusCode).toBe(201);
    expect(cash.json().data.user.hasPaymentReceipt).toBe(false);

    const before = await tableCounts();
    const gcash = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register-with-uploads',
      ...multipart(registrationFields({ paymentMethod: 'gcash' }), [
        { field: 'profileImage', filename: 'profile.jpg', contentType: 'image/jpeg', data: await jpeg() },
      ]),
    });
    expect(gcash.statusCode).toBe(400);
    expect(gcash.json().message).toBe('Payment receipt is required for non-cash payments.');
    expect(await tableCounts()).toEqual(before);
  });

  it.each([
    [{ riderNumber: undefined }, 'Please select a rider number (1-1000).'],
    [{ riderNumber: '1001' }, 'Please select a rider number (1-1000).'],
    [{ riderNumber: '0' }, 'Please select a rider number (1-1000).'],
    [{ tshirtSize: undefined }, 'Please select a T-shirt size.'],
    [{ tshirtSize: 'CUSTOM' }, 'Please enter your custom T-shirt size.'],
    [{ finisherSleeveSize: undefined }, 'Please select a finisher sleeve size.'],
    [{ vestSize: undefined }, 'Please select a vest size.'],
    [{ finisherSleeveSize: 'CUSTOM' }, 'Please enter your custom finisher sleeve size.'],
    [{ vestSize: 'CUSTOM' }, 'Please enter your custom vest size.'],
    [{ firstName: undefined, email: '  ' }, 'Please fill in all required fields: firstName, email'],
    [{ password: 'short' }, 'Password must be at least 8 characters long.'],
    [{ email: 'not-an-email' }, 'email must be a valid email address'],
    [
      { category: 'moon' },
      'category must be one of: lakambini, lakan, bagani, magani, lakambini-obr, lakan-obr, bagani-obr, magani-obr',
    ],
    [{ paymentMethod: 'bitcoin' }, 'paymentMethod must be one of: cash, gcash, bank_transfer'],
    [{ birthdate: '2023-02-30' }, 'birthdate must be a real date'],
    [{ tshirtSize: 'HUGE' }, 'tshirtSize must be one of: XS, S, M, L, XL, XXL, XXXL, CUSTOM'],
    [{ kitName: 'K'.repeat(51) }, 'kitName must be at most 50 characters'],
  ])('refuses %o with its field message and changes nothing', async (overrides, message) => {
    const before = await tableCounts();
    const res = await submit(registrationFields(overrides as Record<string, string | undefined>));
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ success: false, message });
    expect(await tableCounts()).toEqual(before);
  });

  it('refuses a taken email case-insensitively and a taken number with 409', async () => {
    const first = registrationFields({ riderNumber: '640' });
    expect((await submit(first)).statusCode).toBe(201);
    const before = await tableCounts();
    const sameEmail = await submit(
      registrationFields({ email: present(first.email).toUpperCase(), riderNumber: '641' }),
    );
    expect(sameEmail.statusCode).toBe(409);
    expect(sameEmail.json().code).toBe('EMAIL_TAKEN');
    const sameNumber = await submit(registrationFields({ riderNumber: '640' }));
    expect(sameNumber.statusCode).toBe(409);
    expect(sameNumber.json().message).toBe('Rider number 640 is already taken');
    expect(await tableCounts()).toEqual(before);
  });

  /** `preferred` unless a rider of an earlier test holds it, else the lowest free number. */
  const freeRiderNumber = async (preferred: number) => {
    const taken = new Set((await t.database.db.select({ n: entries.riderNumber }).from(entries)).map((r) => r.n));
    return [preferred, ...Array.from({ length: 1000 }, (_, i) => i + 1)].find((n) => !taken.has(n)) ?? preferred;
  };

  it('registers through the JSON route too', async () => {
    // A number no earlier test here holds (their riders get random numbers; 650 was taken once in CI).
    const free = await freeRiderNumber(650);
    const fields = registrationFields({ paymentMethod: 'cash', riderNumber: String(free) });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      payload: { ...fields, riderNumber: free },
    });
    expect(res.statusCode).toBe(201);
    expect(res.json().data.user.riderNumber).toBe(free);
  });

  it('refuses a bad file and leaves nothing behind', async () => {
    const before = await tableCounts();
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register-with-uploads',
      ...multipart(registrationFields(), [
        {
          field: 'profileImage',
          filename: 'profile.jpg',
          contentType: 'image/jpeg',
          data: Buffer.from('<html>not an image</html>'),
        },
        { field: 'paymentReceipt', filename: 'r.png', contentType: 'image/png', data: await png() },
      ]),
    });
    expect(res.statusCode).toBe(415);
    expect(res.json().message).toBe('Please select a valid image file');
    expect(await tableCounts()).toEqual(before);
  });

  it('gives a contested rider number to exactly one of 50 parallel registrations, and the losers leave nothing', async () => {
    const before = await tableCounts();
    const hashesBefore = vi.mocked(hashPassword).mock.calls.length;
    // A number no earlier test here holds: their riders get random numbers, and one landing
    // on the contested number left all 50 losers (seen once in CI).
    const contested = await freeRiderNumber(777);
    const bodies = await Promise.all(
      Array.from({ length: 50 }, async () =>
        multipart(registrationFields({ riderNumber: String(contested) }), await registrationFiles()),
      ),
    );
    // Control: every request is in flight before any answers. Each one's start and end
    // are recorded; overlap means the earliest end comes after the latest start.
    const spans: Array<{ start: number; end: number; status: number; code?: string }> = [];
    await Promise.all(
      bodies.map(async (body) => {
        const start = performance.now();
        const res = await t.app.inject({ method: 'POST', url: '/api/auth/register-with-uploads', ...body });
        spans.push({ start, end: performance.now(), status: res.statusCode, code: res.json().code });
      }),
    );
    const latestStart = Math.max(...spans.map((s) => s.start));
    const earliestEnd = Math.min(...spans.map((s) => s.end));
    expect(earliestEnd).toBeGreaterThan(latestStart);

    expect(spans.filter((s) => s.status === 201)).toHaveLength(1);
    const losers = spans.filter((s) => s.status !== 201);
    expect(losers).toHaveLength(49);
    for (const l of losers) expect(l).toMatchObject({ status: 409, code: 'RIDER_NUMBER_TAKEN' });

    const after = await tableCounts();
    expect(after.users - before.users).toBe(1);
    expect(after.verifications - before.verifications).toBe(1);
    expect(after.files - before.files).toBe(2);
    const holders = await t.database.db
      .select({ id: entries.userId })
      .from(entries)
      .where(eq(entries.riderNumber, contested));
    expect(holders).toHaveLength(1);
    // Claims of one number wait for each other inside the process, and each re-checks the
    // number when its turn comes: the losers are refused before the expensive work (a
    // password hash, done alongside the image re-encoding), so only the winner hashed.
    expect(vi.mocked(hashPassword).mock.calls.length - hashesBefore).toBe(1);
  });
});
