import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activities } from '../../db/schema/activities';
import { entries } from '../../db/schema/entries';
import { inEdition } from '../../lib/edition-of';
import { buildTestApp, DB_KINDS, type TestApp } from '../../test/build-app';
import { markVerified, operatorParticipant } from '../../test/community-factories';
import { bearer, registerRider } from '../../test/factories';
import { firstRow } from '../../test/present';

describe.each(DB_KINDS)('rider kit: sizes and rider code (%s)', (kind) => {
  let t: TestApp;

  beforeAll(async () => {
    t = await buildTestApp(kind);
  });
  afterAll(() => t.close());

  const inject = (method: 'GET' | 'POST', url: string, token?: string, payload?: unknown) =>
    t.app.inject({ method, url, headers: token ? bearer(token) : {}, payload: payload as never });

  const sizesRow = async (userId: string) => {
    // The sizes are the entry's in the current edition.
    const row = firstRow(
      await t.database.db
        .select()
        .from(entries)
        .where(and(eq(entries.userId, userId), inEdition(entries.editionId))),
    );
    return {
      tshirtSize: row.tshirtSize,
      customTshirtSize: row.customTshirtSize,
      tshirtSubmittedAt: row.tshirtSubmittedAt,
      finisherSleeveSize: row.finisherSleeveSize,
      customFinisherSleeveSize: row.customFinisherSleeveSize,
      vestSize: row.vestSize,
      customVestSize: row.customVestSize,
      gearSubmittedAt: row.gearSubmittedAt,
    };
  };

  describe('T-shirt size', () => {
    it('is already submitted for a registered rider, and cannot be submitted again', async () => {
      const rider = await registerRider(t.app);
      const status = await inject('GET', '/api/my/tshirt-size/status', rider.token);
      expect(status.statusCode).toBe(200);
      expect(status.json().data).toEqual({ hasSubmitted: true, size: 'L', customSize: null });
      const before = await sizesRow(rider.userId);
      const res = await inject('POST', '/api/my/tshirt-size', rider.token, { size: 'S' });
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toMatch(/already been submitted/);
      expect(await sizesRow(rider.userId)).toEqual(before);
    });

    it('is submitted once by an operator-created participant, then frozen', async () => {
      const op = await operatorParticipant(t.app, t.database.db);
      const status0 = await inject('GET', '/api/my/tshirt-size/status', op.token);
      expect(status0.json().data).toEqual({ hasSubmitted: false, size: null, customSize: null });

      const first = await inject('POST', '/api/my/tshirt-size', op.token, { size: 'XL' });
      expect(first.statusCode).toBe(200);
      expect(first.json().data).toEqual({ hasSubmitted: true, size: 'XL', customSize: null });
      const after = await sizesRow(op.userId);
      expect(after.tshirtSize).toBe('XL');
      expect(after.tshirtSubmittedAt).toBeInstanceOf(Date);

      const second = await inject('POST', '/api/my/tshirt-size', op.token, { size: 'CUSTOM', customSize: '5XL' });
      expect(second.statusCode).toBe(409);
      expect(second.json().message).toBe('Your T-shirt size has already been submitted and can no longer be changed');
      expect(await sizesRow(op.userId)).toEqual(after);

      const status1 = await inject('GET', '/api/my/tshirt-size/status', op.token);
      expect(status1.json().data).toEqual({ hasSubmitted: true, size: 'XL', customSize: null });

      const logged = await t.database.db.select().from(activities).where(eq(activities.userId, op.userId));
      expect(logged.filter((l) => l.type === 'size_submitted')).toHaveLength(1);
    });

    it('checks the size and the custom text with their messages, changing nothing', async () => {
      const op = await operatorParticipant(t.app, t.database.db);
      const cases: Array<[unknown, string]> = [
        [{}, 'Please select a T-shirt size'],
        [{ size: '' }, 'Please select a T-shirt size'],
        [{ size: null }, 'Please select a T-shirt size'],
        [{ size: 'CUSTOM' }, 'Please enter your custom T-shirt size'],
        [{ size: 'CUSTOM', customSize: '   ' }, 'Please enter your custom T-shirt size'],
        [{ size: 'HUGE' }, 'size must be one of: XS, S, M, L, XL, XXL, XXXL, CUSTOM'],
        [{ size: 'CUSTOM', customSize: 'x'.repeat(51) }, 'customSize must be at most 50 characters'],
      ];
      for (const [payload, message] of cases) {
        const res = await inject('POST', '/api/my/tshirt-size', op.token, payload);
        expect(res.statusCode, JSON.stringify(payload)).toBe(400);
        expect(res.json().message).toBe(message);
      }
      const unchanged = await sizesRow(op.userId);
      expect(unchanged.tshirtSize).toBeNull();
      expect(unchanged.tshirtSubmittedAt).toBeNull();

      const ok = await inject('POST', '/api/my/tshirt-size', op.token, { size: 'CUSTOM', customSize: ' chest 58in ' });
      expect(ok.statusCode).toBe(200);
      expect(ok.json().data).toEqual({ hasSubmitted: true, size: 'CUSTOM', customSize: 'chest 58in' });
    });

    it('drops custom text sent with a regular size', async () => {
      const op = await operatorParticipant(t.app, t.database.db);
      const res = await inject('POST', '/api/my/tshirt-size', op.token, { size: 'M', customSize: 'ignored' });
      expect(res.json().data).toEqual({ hasSubmitted: true, size: 'M', customSize: null });
    });

    it('lets only one of two racing submissions win', async () => {
      const op = await operatorParticipant(t.app, t.database.db);
      const results = await Promise.all([
        inject('POST', '/api/my/tshirt-size', op.token, { size: 'S' }),
        inject('POST', '/api/my/tshirt-size', op.token, { size: 'XXL' }),
      ]);
      expect(results.map((r) => r.statusCode).sort()).toEqual([200, 409]);
      const winner = results.find((r) => r.statusCode === 200)?.json().data.size;
      expect((await sizesRow(op.userId)).tshirtSize).toBe(winner);
    });

    it('needs sign-in', async () => {
      expect((await inject('GET', '/api/my/tshirt-size/status')).statusCode).toBe(401);
      expect((await inject('POST', '/api/my/tshirt-size', undefined, { size: 'M' })).statusCode).toBe(401);
    });
  });

  describe('gear sizes', () => {
    it('shows a registered rider’s gear sizes as submitted and refuses a second submission', async () => {
      const rider = await registerRider(t.app);
      const res = await inject('GET', '/api/my/gear-sizes', rider.token);
      expect(res.json().data).toEqual({
        finisherSleeveSize: 'M',
        vestSize: 'XL',
        customFinisherSleeveSize: null,
        customVestSize: null,
        hasSubmitted: true,
      });
      const before = await sizesRow(rider.userId);
      const again = await inject('POST', '/api/my/gear-sizes', rider.token, { finisherSleeveSize: 'S', vestSize: 'S' });
      expect(again.statusCode).toBe(409);
      expect(again.json().message).toBe('Your gear sizes have already been submitted and can no longer be changed');
      expect(await sizesRow(rider.userId)).toEqual(before);
    });

    it('is submitted once by an operator-created participant, then frozen', async () => {
      const op = await operatorParticipant(t.app, t.database.db);
      const empty = await inject('GET', '/api/my/gear-sizes', op.token);
      expect(empty.json().data).toEqual({
        finisherSleeveSize: null,
        vestSize: null,
        customFinisherSleeveSize: null,
        customVestSize: null,
        hasSubmitted: false,
      });
      const first = await inject('POST', '/api/my/gear-sizes', op.token, {
        finisherSleeveSize: 'CUSTOM',
        customFinisherSleeveSize: 'XL, long arms',
        vestSize: 'L',
        customVestSize: 'dropped',
      });
      expect(first.statusCode).toBe(200);
      const expected = {
        finisherSleeveSize: 'CUSTOM',
        vestSize: 'L',
        customFinisherSleeveSize: 'XL, long arms',
        customVestSize: null,
        hasSubmitted: true,
      };
      expect(first.json().data).toEqual(expected);
      const after = await sizesRow(op.userId);
      const second = await inject('POST', '/api/my/gear-sizes', op.token, { finisherSleeveSize: 'S', vestSize: 'S' });
      expect(second.statusCode).toBe(409);
      expect(await sizesRow(op.userId)).toEqual(after);
      expect((await inject('GET', '/api/my/gear-sizes', op.token)).json().data).toEqual(expected);
      // The T-shirt is a separate submission and is still open.
      expect((await inject('GET', '/api/my/tshirt-size/status', op.token)).json().data.hasSubmitted).toBe(false);
    });

    it('checks the sizes in field order with their messages, changing nothing', async () => {
      const op = await operatorParticipant(t.app, t.database.db);
      const cases: Array<[unknown, string]> = [
        [{}, 'Please select a finisher sleeve size'],
        [{ vestSize: 'M' }, 'Please select a finisher sleeve size'],
        [{ finisherSleeveSize: 'M' }, 'Please select a vest size'],
        [{ finisherSleeveSize: 'CUSTOM' }, 'Please select a vest size'],
        [{ finisherSleeveSize: 'CUSTOM', vestSize: 'CUSTOM' }, 'Please enter your custom finisher sleeve size'],
        [{ finisherSleeveSize: 'M', vestSize: 'CUSTOM', customVestSize: ' ' }, 'Please enter your custom vest size'],
        [
          { finisherSleeveSize: 'XXXXL', vestSize: 'M' },
          'finisherSleeveSize must be one of: XS, S, M, L, XL, XXL, XXXL, CUSTOM',
        ],
      ];
      for (const [payload, message] of cases) {
        const res = await inject('POST', '/api/my/gear-sizes', op.token, payload);
        expect(res.statusCode, JSON.stringify(payload)).toBe(400);
        expect(res.json().message).toBe(message);
      }
      const row = await sizesRow(op.userId);
      expect(row.gearSubmittedAt).toBeNull();
      expect(row.vestSize).toBeNull();
    });

    it('needs sign-in', async () => {
      expect((await inject('GET', '/api/my/gear-sizes')).statusCode).toBe(401);
    });
  });

  describe('rider code', () => {
    it('is 404 until the rider is verified, then returned', async () => {
      const rider = await registerRider(t.app);
      const pending = await inject('GET', '/api/my/rider-code', rider.token);
      expect(pending.statusCode).toBe(404);
      expect(pending.json()).toMatchObject({ success: false, message: 'No rider code available' });

      const code = await markVerified(t.database.db, rider.userId);
      const verified = await inject('GET', '/api/my/rider-code', rider.token);
      expect(verified.statusCode).toBe(200);
      expect(verified.json().data).toEqual({ riderCode: code });
      expect(verified.headers['cache-control']).toBe('no-store');
    });

    it('is withheld from a rejected rider even if a code exists', async () => {
      const rider = await registerRider(t.app);
      await markVerified(t.database.db, rider.userId);
      await t.database.db.update(entries).set({ status: 'rejected' }).where(eq(entries.userId, rider.userId));
      expect((await inject('GET', '/api/my/rider-code', rider.token)).statusCode).toBe(404);
    });

    it('exists for operator-created accounts', async () => {
      const op = await operatorParticipant(t.app, t.database.db);
      const res = await inject('GET', '/api/my/rider-code', op.token);
      expect(res.statusCode).toBe(200);
      expect(res.json().data.riderCode).toMatch(/^RC-[0-9A-Z]{12}$/);
    });

    it('needs sign-in', async () => {
      expect((await inject('GET', '/api/my/rider-code')).statusCode).toBe(401);
    });
  });
});
