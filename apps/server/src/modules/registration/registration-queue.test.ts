// Registrations of one rider number wait for each other inside the process; these drive
// register() directly to control when each claim's work finishes.
import { registrationPayload } from '@rally/shared/contracts/auth';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { entries } from '../../db/schema/entries';
import { BadRequestError } from '../../lib/errors';
import type { PendingUpload } from '../../lib/files';
import { DB_KINDS, openTestDatabase } from '../../test/build-app';
import { registrationFields } from '../../test/factories';
import { register } from './registration.service';

type Opened = Awaited<ReturnType<typeof openTestDatabase>>;
const client = { ip: '127.0.0.1', userAgent: 'vitest' };
const tick = () => new Promise<void>((resolve) => setTimeout(resolve, 20));

/** Upload checks that finish only when released (no files, the JSON route's shape). */
function heldUploads() {
  let release!: () => void;
  const released = new Promise<void>((resolve) => {
    release = resolve;
  });
  const inspect = vi.fn(async (): Promise<PendingUpload[]> => {
    await released;
    return [];
  });
  return { inspect, release };
}

const noUploads = () => vi.fn(async (): Promise<PendingUpload[]> => []);

describe.each(DB_KINDS)('rider-number queue on %s', (kind) => {
  let t: Opened;
  beforeAll(async () => {
    t = await openTestDatabase(kind);
  });
  afterAll(() => t.drop());

  const input = (riderNumber: number) =>
    registrationPayload(false).parse(registrationFields({ riderNumber: String(riderNumber), paymentMethod: 'cash' }));
  const holders = async (n: number) =>
    (await t.database.db.select({ id: entries.userId }).from(entries).where(eq(entries.riderNumber, n))).length;

  it('refuses the next claim of a number with 409 before any of its work, once the first has committed', async () => {
    const first = heldUploads();
    const pFirst = register(t.database.db, input(901), first.inspect, client);
    const second = noUploads();
    const pSecond = register(t.database.db, input(901), second, client);
    await vi.waitFor(() => expect(first.inspect).toHaveBeenCalledTimes(1));
    await tick();
    expect(second).not.toHaveBeenCalled(); // waiting its turn
    first.release();
    await expect(pFirst).resolves.toMatchObject({ userId: expect.any(String) });
    await expect(pSecond).rejects.toMatchObject({
      statusCode: 409,
      code: 'RIDER_NUMBER_TAKEN',
      message: 'Rider number 901 is already taken',
    });
    expect(second).not.toHaveBeenCalled();
    expect(await holders(901)).toBe(1);
  });

  it('drops a waiting claim whose client went away, and the line moves on', async () => {
    const first = heldUploads();
    const pFirst = register(t.database.db, input(902), first.inspect, client);
    const gone = new AbortController();
    const abandoned = noUploads();
    const pAbandoned = register(t.database.db, input(902), abandoned, client, gone.signal);
    const third = noUploads();
    const pThird = register(t.database.db, input(902), third, client);
    await tick();
    gone.abort(new Error('client closed the connection'));
    await expect(pAbandoned).rejects.toThrow('client closed the connection');
    await tick();
    expect(third).not.toHaveBeenCalled(); // still behind the first
    first.release();
    await pFirst;
    await expect(pThird).rejects.toMatchObject({ code: 'RIDER_NUMBER_TAKEN' });
    expect(abandoned).not.toHaveBeenCalled();
    expect(await holders(902)).toBe(1);
  });

  it('lets the next claim through when the one in front fails', async () => {
    const failing = vi.fn(async (): Promise<PendingUpload[]> => {
      await tick();
      throw new BadRequestError('The image could not be read. Please choose another file.', 'UNREADABLE_IMAGE');
    });
    const pFailing = register(t.database.db, input(903), failing, client);
    const pNext = register(t.database.db, input(903), noUploads(), client);
    await expect(pFailing).rejects.toMatchObject({ statusCode: 400, code: 'UNREADABLE_IMAGE' });
    await expect(pNext).resolves.toMatchObject({ userId: expect.any(String) });
    expect(await holders(903)).toBe(1);
  });

  it('never makes claims of different numbers wait for each other', async () => {
    const slow = heldUploads();
    const pSlow = register(t.database.db, input(904), slow.inspect, client);
    await vi.waitFor(() => expect(slow.inspect).toHaveBeenCalled());
    // 905 completes while 904 is still in the middle of its work.
    await expect(register(t.database.db, input(905), noUploads(), client)).resolves.toMatchObject({
      userId: expect.any(String),
    });
    expect(await holders(904)).toBe(0);
    slow.release();
    await pSlow;
    expect(await holders(904)).toBe(1);
    expect(await holders(905)).toBe(1);
  });
});
