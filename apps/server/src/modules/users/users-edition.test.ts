// A rider who entered two editions has a verification row in each (DESIGN.md §9). The staff
// lists, the user record, the public profile, the verification log and the session's
// verification read the edition asked for: the current one by default, a past one with
// `?edition=`. A join naming no edition listed such a rider once per edition and could answer
// with last year's code or status.
import type { UserRecord } from '@rally/shared/contracts/auth';
import type { AdminUser } from '@rally/shared/contracts/users';
import { describe, expect, it } from 'vitest';
import { DB_KINDS, useTestApp } from '../../test/build-app';
import { type Actor, approvedRider, injectAs, joinEdition, rollOver } from '../../test/factories';

type Method = 'GET' | 'POST';

describe.each(DB_KINDS)('users across editions (%s)', (kind) => {
  const t = useTestApp(kind, 'admin');
  const { admin } = t.staff;
  const ok = async (actor: Actor | null, method: Method, url: string, payload?: unknown) => {
    const res = await injectAs(t.app, actor, method, url, payload);
    expect(res.statusCode, `${method} ${url}: ${res.body}`).toBeLessThan(300);
    return res.json();
  };
  const record = async (rider: Actor) => (await ok(rider, 'GET', '/api/auth/profile')).data.user as UserRecord;
  /** The rows of the Users tab naming `userId` (the search finds them by email). */
  const listed = async (rider: Actor, edition?: string) => {
    const query = `search=${encodeURIComponent(rider.email)}&limit=100${edition ? `&edition=${edition}` : ''}`;
    const users = (await ok(admin, 'GET', `/api/admin/users?${query}`)).data.users as AdminUser[];
    return users.filter((u) => u.id === rider.userId);
  };
  const inMasterlist = async (rider: Actor, edition?: string) => {
    const query = `search=${encodeURIComponent(rider.email)}&limit=100${edition ? `&edition=${edition}` : ''}`;
    const rows = (await ok(admin, 'GET', `/api/admin/masterlist?${query}`)).data.participants as AdminUser[];
    return rows.filter((u) => u.id === rider.userId);
  };
  const card = async (rider: Actor, edition?: string) =>
    (await ok(admin, 'GET', `/api/admin/users/${rider.userId}${edition ? `?edition=${edition}` : ''}`)).data
      .user as AdminUser;
  const verificationLogs = async (rider: Actor) =>
    (
      (await ok(admin, 'GET', `/api/admin/logs?logType=verifications&search=${encodeURIComponent(rider.email)}`)).data
        .logs as Array<{ user_id: string | null; details: string | null }>
    ).filter((l) => l.user_id === rider.userId);

  const publicStatus = async (rider: Actor) =>
    (await ok(null, 'GET', `/api/users/${rider.userId}/profile`)).data.verificationStatus as string | null;

  it('reads the current edition’s verification, and the past one with ?edition=', async () => {
    const rider = await approvedRider(t.app, admin);
    const pastCode = rider.verificationCode;
    expect(await listed(rider)).toMatchObject([{ verification_status: 'verified', verification_code: pastCode }]);

    const { past } = await rollOver(t.app, admin);

    // Not entered yet: last year's verified row is not this year's entry.
    expect(await record(rider)).toMatchObject({ verificationStatus: 'not_entered', verificationCode: null });
    expect(await listed(rider)).toEqual([]);
    expect(await card(rider)).toMatchObject({ verification_status: null, verification_code: null });
    // No entry this year: the entry's fields have nowhere to go, and the person's stay as they were.
    for (const [url, body] of [
      [`/api/admin/users/${rider.userId}`, { category: 'lakan', club_name: 'Changed Club' }],
      [`/api/admin/users/${rider.userId}/kit-sizes`, { tshirtSize: 'S' }],
    ] as const) {
      const refused = await injectAs(t.app, admin, url.endsWith('sizes') ? 'PUT' : 'PATCH', url, body);
      expect(refused.statusCode, refused.body).toBe(409);
      expect(refused.json()).toMatchObject({ code: 'NOT_ENTERED' });
    }
    expect((await card(rider)).club_name).not.toBe('Changed Club');
    expect((await card(rider, past)).tshirt_size).not.toBe('S');
    expect(await publicStatus(rider)).toBeNull();
    expect((await injectAs(t.app, rider, 'POST', `/api/users/${admin.userId}/fire`)).json()).toMatchObject({
      code: 'NOT_VERIFIED',
    });

    // Entered, pending: the new code, and still no verified rider's rights.
    const code = await joinEdition(t.app, rider);
    expect(code).not.toBe(pastCode);
    expect(await record(rider)).toMatchObject({ verificationStatus: 'pending', verificationCode: code });
    expect(await listed(rider)).toEqual([]);
    expect(await card(rider)).toMatchObject({ verification_status: 'pending', verification_code: code });
    expect(await publicStatus(rider)).toBe('pending');
    expect(await inMasterlist(rider)).toMatchObject([{ verification_status: 'pending', verification_code: code }]);
    expect((await injectAs(t.app, rider, 'POST', `/api/users/${admin.userId}/fire`)).json()).toMatchObject({
      code: 'NOT_VERIFIED',
    });

    // Verified: listed once, with this edition's code; the log shows this edition's verification only.
    await ok(admin, 'POST', '/api/admin/verifications/verify', { verification_code: code, action: 'verified' });
    expect(await record(rider)).toMatchObject({ verificationStatus: 'verified', verificationCode: code });
    expect(await listed(rider)).toMatchObject([{ verification_status: 'verified', verification_code: code }]);
    expect(await card(rider)).toMatchObject({ verification_status: 'verified', verification_code: code });
    expect(await inMasterlist(rider)).toMatchObject([{ verification_status: 'verified', verification_code: code }]);
    expect(await publicStatus(rider)).toBe('verified');
    const logs = await verificationLogs(rider);
    expect(logs).toHaveLength(1);
    expect(logs[0]?.details).toContain(`Code ${code}`);
    expect((await injectAs(t.app, rider, 'POST', `/api/users/${admin.userId}/fire`)).json().code).not.toBe(
      'NOT_VERIFIED',
    );

    // The past edition, read by staff: last year's code and status, once.
    expect(await listed(rider, past)).toMatchObject([{ verification_status: 'verified', verification_code: pastCode }]);
    expect(await card(rider, past)).toMatchObject({ verification_status: 'verified', verification_code: pastCode });
    expect(await inMasterlist(rider, past)).toMatchObject([
      { verification_status: 'verified', verification_code: pastCode },
    ]);
  });
});
