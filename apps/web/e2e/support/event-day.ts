// The API steps every event-day spec takes: sign in an account made by the CLI, approve a
// registered rider, add a station, and post a marshal's scan as the scanner page does.
import { randomUUID } from 'node:crypto';
import type { APIRequestContext } from '@playwright/test';
import type { UserRecord } from '@rally/shared/contracts/auth';
import type { ScanResult } from '@rally/shared/contracts/scans';
import type { Station } from '@rally/shared/contracts/stations';
import { registerRider } from './api';
import type { CreatedUser } from './cli';
import { expect } from './fixtures';

export interface Session {
  token: string;
  user: UserRecord;
}

export async function session(request: APIRequestContext, created: CreatedUser): Promise<Session> {
  const res = await request.post('/api/auth/login', { data: { email: created.email, password: created.password } });
  const body = await res.json();
  if (!res.ok()) throw new Error(`login failed: ${JSON.stringify(body)}`);
  return { token: body.token, user: body.data.user };
}

export const auth = (s: Session) => ({ Authorization: `Bearer ${s.token}` });

/** A registered rider (number, category lakan) approved by an admin, as on the real day. */
export async function verifiedRider(request: APIRequestContext, admin: Session): Promise<Session> {
  const registered = await registerRider(request);
  const approved = await request.post('/api/admin/verifications/verify', {
    headers: auth(admin),
    data: { verification_code: registered.user.verificationCode, action: 'verified' },
  });
  expect(approved.ok()).toBeTruthy();
  return session(request, { email: registered.email, password: registered.password, role: 'participant' });
}

export async function addStation(
  request: APIRequestContext,
  admin: Session,
  body: Record<string, unknown>,
): Promise<Station> {
  const res = await request.post('/api/admin/stations', { headers: auth(admin), data: body });
  const json = await res.json();
  if (!res.ok()) throw new Error(`station not created: ${JSON.stringify(json)}`);
  return json.data;
}

/** One scan made now on a marshal's phone, synced at once; answers the server's verdict. */
export async function scan(
  request: APIRequestContext,
  marshal: Session,
  stationId: string,
  rider: { riderCode?: string; riderNumber?: number },
  deviceId = 'e2e-marshal-phone',
): Promise<ScanResult> {
  const res = await request.post('/api/admin/scans', {
    headers: auth(marshal),
    data: {
      scans: [
        {
          id: randomUUID(),
          stationId,
          ...rider,
          scannedAt: new Date().toISOString(),
          deviceId,
          source: 'camera',
          recordedBy: marshal.user.id,
        },
      ],
    },
  });
  const json = await res.json();
  if (!res.ok()) throw new Error(`scan refused: ${JSON.stringify(json)}`);
  const result = json.data.results[0];
  if (!result) throw new Error('no scan result');
  return result;
}
