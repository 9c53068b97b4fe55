// A pending rider for the verification desk's specs, registered through the real route.
import { type APIRequestContext, expect } from '@playwright/test';
import { freeRiderNumber } from './api';
import { PASSWORD } from './env';
import { uniqueImageFixture } from './images';

/**
 * A pending LAKAN rider (owes ₱2,700) whose email starts with `batch`, so a search finds
 * one test's riders only; `receipt` is the image sent (a unique plain picture by default).
 */
export async function deskRider(
  request: APIRequestContext,
  batch: string,
  lastName: string,
  receipt: Buffer = uniqueImageFixture(240, 360),
) {
  const email = `${batch}-${lastName.toLowerCase()}@example.com`;
  const response = await request.post('/api/auth/register-with-uploads', {
    multipart: {
      firstName: 'Desk',
      lastName,
      email,
      password: PASSWORD,
      phoneNumber: '09171234567',
      category: 'lakan',
      paymentMethod: 'gcash',
      riderNumber: String(await freeRiderNumber(request)),
      tshirtSize: 'L',
      finisherSleeveSize: 'M',
      vestSize: 'L',
      paymentAmount: '2700',
      paymentReceipt: { name: 'receipt.png', mimeType: 'image/png', buffer: receipt },
    },
  });
  const body = await response.json();
  expect(response.ok(), JSON.stringify(body)).toBeTruthy();
  return { email, code: body.data.user.verificationCode as string, name: `Desk ${lastName}` };
}
