import { describe, expect, it } from 'vitest';
import { multipart, registrationFields, registrationFiles } from '../test/factories';
import { present } from '../test/present';
import { freshDataDir, freshPgDatabase, startServer } from '../test/processes';

const kinds = process.env.TEST_DATABASE_URL ? (['pglite', 'postgres'] as const) : (['pglite'] as const);

describe.each(kinds)('crash consistency on %s', (kind) => {
  it('keeps every acknowledged registration, with its files, through SIGKILL', async () => {
    const dataDir = freshDataDir('rally-crash-');
    const pgdb = kind === 'postgres' ? await freshPgDatabase('rally_crash') : null;
    const env: Record<string, string> = { DATA_DIR: dataDir, RATE_LIMITS: 'off', LOG_LEVEL: 'warn' };
    if (pgdb) env.DATABASE_URL = pgdb.url;
    const server = await startServer(env);

    const files = await registrationFiles();
    const acknowledged: Array<{ email: string; riderNumber: number; password: string }> = [];
    let attempted = 0;
    let killed = false;
    const worker = async (w: number) => {
      for (let i = 0; !killed; i++) {
        const riderNumber = w * 100 + i + 1;
        const fields = registrationFields({ riderNumber: String(riderNumber) });
        const body = multipart(fields, files);
        attempted++;
        try {
          const res = await fetch(`${server.url}/api/auth/register-with-uploads`, {
            method: 'POST',
            headers: body.headers,
            body: body.payload,
          });
          if (res.status === 201)
            acknowledged.push({ email: present(fields.email), riderNumber, password: present(fields.password) });
        } catch {
          // In flight when the server died: not acknowledged, so it may or may not exist.
        }
      }
    };
    const load = Promise.all(Array.from({ length: 6 }, (_, w) => worker(w)));
    // Kill once a good number of registrations have been acknowledged, mid-rush.
    const deadline = Date.now() + 120_000;
    while (acknowledged.length < 25 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    killed = true;
    // stop() waits on the exit promise made at start, so an exit that already happened still counts.
    await server.stop('SIGKILL');
    await load;

    const restarted = await startServer(env);
    try {
      for (const a of acknowledged) {
        const login = await fetch(`${restarted.url}/api/auth/login`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: a.email, password: a.password }),
        });
        expect(login.status, `acknowledged ${a.email} must survive`).toBe(200);
        const { data, token } = (await login.json()) as { token: string; data: { user: Record<string, unknown> } };
        expect(data.user).toMatchObject({
          riderNumber: a.riderNumber,
          hasProfileImage: true,
          hasPaymentReceipt: true,
          verificationStatus: 'pending',
        });
        // Its images are processed by the file queue, which the restarted server resumes (a job
        // the dead process held is taken again when its lease ends); until then the receipt is
        // served to nobody. Across processes the API is the only view of it.
        const receiptUrl = `${restarted.url}/api/upload/payment-receipt/${data.user.id}`;
        let receipt = await fetch(receiptUrl, { headers: { authorization: `Bearer ${token}` } });
        const until = Date.now() + 90_000;
        while (receipt.status === 404 && Date.now() < until) {
          await receipt.arrayBuffer();
          await new Promise((r) => setTimeout(r, 100));
          receipt = await fetch(receiptUrl, { headers: { authorization: `Bearer ${token}` } });
        }
        expect(receipt.status).toBe(200);
        expect((await receipt.arrayBuffer()).byteLength).toBeGreaterThan(0);
      }
      // Every account that exists is whole: it has a number, a verification record and both files.
      const taken = (await (await fetch(`${restarted.url}/api/rider-numbers/taken`)).json()) as {
        data: { takenNumbers: number[] };
      };
      expect(taken.data.takenNumbers.length).toBeGreaterThanOrEqual(acknowledged.length);
      expect(taken.data.takenNumbers.length).toBeLessThanOrEqual(attempted);
      for (const n of taken.data.takenNumbers) {
        const w = Math.floor((n - 1) / 100);
        expect(w).toBeLessThan(6);
      }
    } finally {
      await restarted.stop('SIGTERM');
      await pgdb?.drop();
    }
    expect(acknowledged.length).toBeGreaterThanOrEqual(25);
  }, 240_000);
});
