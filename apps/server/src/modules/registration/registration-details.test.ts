// The emergency contact and medical notes a rider may give at registration: optional for
// the API, checked for format only once the registration checks in their fixed order pass.
import { PH_MOBILE_MESSAGE } from '@rally/shared/contracts/rider-details';
import { count, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { users } from '../../db/schema/users';
import { DB_KINDS, useTestApp } from '../../test/build-app';
import {
  approvedRider,
  bearer,
  emergencyAndMedicalColumns,
  multipart,
  registrationFields,
  registrationFiles,
} from '../../test/factories';
import { firstRow } from '../../test/present';

describe.each(DB_KINDS)('registration emergency contact and medical notes on %s', (kind) => {
  const t = useTestApp(kind, 'admin');
  const { admin } = t.staff;

  const userCount = async () => firstRow(await t.database.db.select({ n: count() }).from(users)).n;
  const submit = async (fields: Record<string, string>) =>
    t.app.inject({
      method: 'POST',
      url: '/api/auth/register-with-uploads',
      ...multipart(fields, await registrationFiles()),
    });
  const submitJson = (fields: Record<string, string>) =>
    t.app.inject({ method: 'POST', url: '/api/auth/register', payload: { ...fields, paymentMethod: 'cash' } });
  const stored = async (id: string) =>
    firstRow(await t.database.db.select(emergencyAndMedicalColumns).from(users).where(eq(users.id, id)));

  it('stores the emergency contact and medical notes, and staff read them on the rider card', async () => {
    const rider = await approvedRider(t.app, admin, {
      emergencyContactName: 'Amihan Rider',
      emergencyContactNumber: '+63 917-123-4567',
      bloodType: 'O+',
      allergies: '  Penicillin  ',
      medicalConditions: 'Asthma (inhaler in tank bag)',
    });
    expect(await stored(rider.userId)).toEqual({
      emergencyContactName: 'Amihan Rider',
      emergencyContactNumber: '+63 917-123-4567',
      bloodType: 'O+',
      allergies: 'Penicillin',
      medicalConditions: 'Asthma (inhaler in tank bag)',
    });
    const card = await t.app.inject({
      method: 'GET',
      url: `/api/admin/id-cards/user/${rider.userId}`,
      headers: bearer(admin.token),
    });
    expect(card.statusCode, card.body).toBe(200);
    expect(card.json().data).toMatchObject({
      emergency_contact_number: '+63 917-123-4567',
      blood_type: 'O+',
      allergies: 'Penicillin',
      medical_conditions: 'Asthma (inhaler in tank bag)',
    });
  });

  it('keeps every one of them optional: absent or blank, they are stored as nothing', async () => {
    const res = await submit(
      registrationFields({
        emergencyContactName: undefined,
        emergencyContactNumber: '   ',
        bloodType: undefined,
        allergies: '',
        medicalConditions: undefined,
      }),
    );
    expect(res.statusCode, res.body).toBe(201);
    expect(await stored(res.json().data.user.id)).toEqual({
      emergencyContactName: null,
      emergencyContactNumber: null,
      bloodType: null,
      allergies: null,
      medicalConditions: null,
    });
  });

  it.each([
    [{ emergencyContactNumber: '12345' }, PH_MOBILE_MESSAGE],
    [{ emergencyContactNumber: '0817 123 4567' }, PH_MOBILE_MESSAGE],
    [{ bloodType: 'Z+' }, 'bloodType must be one of: A+, A-, B+, B-, AB+, AB-, O+, O-'],
    [{ allergies: 'x'.repeat(501) }, 'allergies must be at most 500 characters'],
    [{ medicalConditions: 'x'.repeat(501) }, 'medicalConditions must be at most 500 characters'],
  ])('refuses %o with 400 and its message, on both routes, and stores nothing', async (overrides, message) => {
    const before = await userCount();
    const multipartRes = await submit(registrationFields(overrides));
    expect(multipartRes.statusCode).toBe(400);
    expect(multipartRes.json()).toMatchObject({ success: false, message });
    const jsonRes = await submitJson(registrationFields(overrides));
    expect(jsonRes.statusCode).toBe(400);
    expect(jsonRes.json()).toMatchObject({ success: false, message });
    expect(await userCount()).toBe(before);
  });

  it.each([
    [{ firstName: undefined }, 'Please fill in all required fields: firstName'],
    [{ riderNumber: undefined }, 'Please select a rider number (1-1000).'],
    [{ vestSize: 'CUSTOM' }, 'Please enter your custom vest size.'],
    [{ password: 'short' }, 'Password must be at least 8 characters long.'],
  ])(
    'still answers the fixed-order check first when %o comes with a bad emergency number',
    async (overrides, message) => {
      const fields = registrationFields({ ...overrides, emergencyContactNumber: 'call my mom', bloodType: 'Z+' });
      const multipartRes = await submit(fields);
      expect(multipartRes.statusCode).toBe(400);
      expect(multipartRes.json().message).toBe(message);
      const jsonRes = await submitJson(fields);
      expect(jsonRes.statusCode).toBe(400);
      expect(jsonRes.json().message).toBe(message);
    },
  );

  it('checks the receipt rule before the emergency number', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register-with-uploads',
      ...multipart(registrationFields({ paymentMethod: 'gcash', emergencyContactNumber: '123' }), []),
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Payment receipt is required for non-cash payments.');
  });
});
