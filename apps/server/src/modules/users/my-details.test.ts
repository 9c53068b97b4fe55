// PATCH /my/details: the signed-in user edits their own contact, emergency contact and
// medical notes; audited; bad input changes nothing.
import { PH_MOBILE_MESSAGE } from '@rally/shared/contracts/rider-details';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activities } from '../../db/schema/activities';
import { users } from '../../db/schema/users';
import { buildTestApp, DB_KINDS, type TestApp } from '../../test/build-app';
import { type Actor, bearer, emergencyAndMedicalColumns, registerRider } from '../../test/factories';

describe.each(DB_KINDS)('a rider edits their own details on %s', (kind) => {
  let t: TestApp;
  let rider: Actor;
  let other: Actor;

  beforeAll(async () => {
    t = await buildTestApp(kind);
    rider = await registerRider(t.app, { firstName: 'Amihan', lastName: 'Self' });
    other = await registerRider(t.app, { firstName: 'Bagwis', lastName: 'Other' });
  });
  afterAll(() => t.close());

  const patch = (who: Actor | null, payload: unknown) =>
    t.app.inject({
      method: 'PATCH',
      url: '/api/my/details',
      headers: who ? bearer(who.token) : {},
      payload: payload as Record<string, unknown>,
    });

  const stored = async (userId: string) => {
    const [row] = await t.database.db
      .select({ phoneNumber: users.phoneNumber, address: users.address, ...emergencyAndMedicalColumns })
      .from(users)
      .where(eq(users.id, userId));
    return row;
  };

  const selfEdits = (userId: string) =>
    t.database.db
      .select()
      .from(activities)
      .where(and(eq(activities.type, 'user_update'), eq(activities.userId, userId)));

  it('saves the sent fields, answers the fresh user record and logs which fields changed', async () => {
    const sent = {
      phoneNumber: '0917 555 0101',
      address: 'Purok 3, Barangay Catalunan Grande, Davao City',
      emergencyContactName: 'Inang Self',
      emergencyContactNumber: '+63 918-555-0102',
      bloodType: 'AB-',
      allergies: 'Penicillin',
      medicalConditions: 'Asthma',
    };
    const res = await patch(rider, sent);
    expect(res.statusCode, res.body).toBe(200);
    const json = res.json();
    expect(json.message).toBe('Your details have been updated');
    // The fields as sent: none of these values needs normalising.
    expect(json.data.user).toMatchObject({ id: rider.userId, ...sent });
    // The profile read afterwards shows the same.
    const profile = await t.app.inject({ method: 'GET', url: '/api/auth/profile', headers: bearer(rider.token) });
    expect(profile.json().data.user).toMatchObject({ bloodType: 'AB-', allergies: 'Penicillin' });

    const logged = await selfEdits(rider.userId);
    expect(logged).toHaveLength(1);
    expect(logged[0]).toMatchObject({
      actorId: rider.userId,
      actorName: 'Amihan Self',
      description: 'Amihan Self updated their own details',
    });
    expect(logged[0]?.details).toBe(
      'Changed: phoneNumber, address, emergencyContactName, emergencyContactNumber, bloodType, allergies, medicalConditions',
    );
    // What the rider is allergic to, or suffers from, is not copied into the log.
    expect(JSON.stringify(logged)).not.toMatch(/Penicillin|Asthma/);
  });

  it('changes only the sent fields, and blank clears phone, address and medical notes', async () => {
    const res = await patch(rider, { allergies: '  ', bloodType: '', address: '' });
    expect(res.statusCode, res.body).toBe(200);
    expect(await stored(rider.userId)).toEqual({
      phoneNumber: '0917 555 0101',
      address: null,
      emergencyContactName: 'Inang Self',
      emergencyContactNumber: '+63 918-555-0102',
      bloodType: null,
      allergies: null,
      medicalConditions: 'Asthma',
    });
    expect(await selfEdits(rider.userId)).toHaveLength(2);
  });

  it('refuses bad input with a clear message and changes nothing', async () => {
    const before = await stored(rider.userId);
    const cases: Array<[unknown, string | RegExp]> = [
      [{ emergencyContactNumber: '12345' }, PH_MOBILE_MESSAGE],
      [{ emergencyContactNumber: '0917123456' }, PH_MOBILE_MESSAGE],
      [{ emergencyContactNumber: '' }, PH_MOBILE_MESSAGE],
      [{ emergencyContactName: '  ' }, 'Emergency contact name is required'],
      [{ emergencyContactName: 'x'.repeat(101) }, 'Emergency contact name must be at most 100 characters'],
      [{ bloodType: 'Z+' }, 'Blood type must be one of: A+, A-, B+, B-, AB+, AB-, O+, O-'],
      [{ allergies: 'x'.repeat(501) }, 'Allergies must be at most 500 characters'],
      [{ medicalConditions: 'x'.repeat(501) }, 'Medical conditions must be at most 500 characters'],
      [{ address: 'x'.repeat(501) }, 'Address must be at most 500 characters'],
      [{ phoneNumber: '0'.repeat(31) }, 'Phone number must be at most 30 characters'],
      [{ allergies: 42 }, 'Allergies must be text'],
      // A field this route does not edit is refused, not silently dropped.
      [{ firstName: 'Renamed', allergies: 'Dust' }, 'Unknown field: firstName'],
      [{}, 'Nothing to update'],
    ];
    for (const [body, message] of cases) {
      const res = await patch(rider, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json()).toMatchObject({ success: false });
      expect(res.json().message, JSON.stringify(body)).toMatch(message);
    }
    // A good field beside a bad one is not saved either.
    const mixed = await patch(rider, { phoneNumber: '09990000000', emergencyContactNumber: 'call me' });
    expect(mixed.statusCode).toBe(400);
    expect(await stored(rider.userId)).toEqual(before);
    expect(await selfEdits(rider.userId)).toHaveLength(2);
  });

  it('answers 401 without a session', async () => {
    const res = await patch(null, { allergies: 'Dust' });
    expect(res.statusCode).toBe(401);
  });

  it('never changes another user’s data', async () => {
    const before = await stored(other.userId);
    // There is no id to aim with: naming another user is an unknown field.
    for (const body of [
      { id: other.userId, allergies: 'Dust' },
      { userId: other.userId, allergies: 'Dust' },
    ]) {
      const res = await patch(rider, body);
      expect(res.statusCode).toBe(400);
    }
    const own = await patch(rider, { allergies: 'Dust' });
    expect(own.statusCode).toBe(200);
    expect(own.json().data.user.id).toBe(rider.userId);
    expect(await stored(other.userId)).toEqual(before);
    expect(await selfEdits(other.userId)).toHaveLength(0);
  });
});
