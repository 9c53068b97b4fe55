// kill -9 in the middle of the drain: the real server takes a rush of registrations with the
// uploads a phone sends, is killed while its queue is processing them, and is started again
// on the same data. Every acknowledged rider's images end processed and servable: the jobs
// were rows committed with the registrations, and a job the dead process held is taken again
// when its lease ends.
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { multipart, registrationFields } from '../../test/factories';
import { phoneUploads } from '../../test/phone-uploads';
import { freshDataDir, freshPgDatabase, startServer } from '../../test/processes';
import { waitForFilesIn } from '../../test/wait-for-files';

const kinds = process.env.TEST_DATABASE_URL ? (['pglite', 'postgres'] as const) : (['pglite'] as const);

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe.each(kinds)('file queue across kill -9 on %s', (kind) => {
  it('processes every acknowledged upload after a crash in the middle of the drain', async () => {
    const dataDir = freshDataDir('rally-filecrash-');
    const pgdb = kind === 'postgres' ? await freshPgDatabase('rally_filecrash') : null;
    // A short lease: the dead process's jobs are taken again 5 s after the kill, not 30.
    const env: Record<string, string> = {
      DATA_DIR: dataDir,
      RATE_LIMITS: 'off',
      LOG_LEVEL: 'warn',
      FILE_JOB_LEASE_S: '5',
    };
    if (pgdb) env.DATABASE_URL = pgdb.url;
    const server = await startServer(env);
    const { photo, screenshot } = await phoneUploads();
    const uploads = [
      { field: 'profileImage', filename: 'IMG_0001.jpg', contentType: 'image/jpeg', data: photo },
      { field: 'paymentReceipt', filename: 'Screenshot.png', contentType: 'image/png', data: screenshot },
    ];
    const acknowledged: Array<{ userId: string; token: string }> = [];
    const servable = (base: string, rider: { userId: string; token: string }, path: string) =>
      fetch(`${base}/api/upload/${path}/${rider.userId}`, { headers: { authorization: `Bearer ${rider.token}` } })
        .then((r) => r.status === 200)
        .catch(() => false);

    let killed = false;
    const client = async (w: number) => {
      for (let i = 0; !killed; i++) {
        const body = multipart(registrationFields({ riderNumber: String(w * 200 + i + 1) }), uploads);
        try {
          const res = await fetch(`${server.url}/api/auth/register-with-uploads`, {
            method: 'POST',
            headers: body.headers,
            body: body.payload,
          });
          if (res.status === 201) {
            const json = (await res.json()) as { token: string; data: { user: { id: string } } };
            acknowledged.push({ userId: json.data.user.id, token: json.token });
          }
        } catch {
          // In flight when the server died: not acknowledged.
        }
      }
    };
    const rush = Promise.all(Array.from({ length: 3 }, (_, w) => client(w)));
    // Kill once the queue has processed some files and not others: the first rider's photo
    // is served, the latest one's is not yet.
    const deadline = Date.now() + 120_000;
    let midDrain = false;
    while (Date.now() < deadline) {
      const first = acknowledged[0];
      const latest = acknowledged.at(-1);
      if (acknowledged.length >= 8 && first && latest && (await servable(server.url, first, 'profile-image'))) {
        if (!(await servable(server.url, latest, 'profile-image'))) {
          midDrain = true;
          break;
        }
      }
      await pause(50);
    }
    killed = true;
    await server.stop('SIGKILL');
    await rush;
    expect(midDrain, 'killed while the queue still had files to process').toBe(true);

    const restarted = await startServer(env);
    try {
      // The restarted queue drains by itself: each rider's files become servable (a file not
      // processed is served to nobody). Across processes the only view is the API's.
      const lost: string[] = [];
      const until = Date.now() + 180_000;
      for (const rider of acknowledged) {
        for (const path of ['profile-image', 'payment-receipt']) {
          while (!(await servable(restarted.url, rider, path))) {
            if (Date.now() > until) {
              lost.push(`${rider.userId} ${path}`);
              break;
            }
            await pause(100);
          }
        }
      }
      expect(lost).toEqual([]);
      if (pgdb) {
        // Every file on the database, acknowledged or not (a registration that committed as
        // the server died, its answer lost), ends processed once the queue has drained.
        const c = new pg.Client({ connectionString: pgdb.url });
        await c.connect();
        try {
          await waitForFilesIn(drizzle(c));
          const { rows } = await c.query<{ status: string; n: number }>(
            `select status, count(*)::int as n from files group by status`,
          );
          expect(rows).toEqual([{ status: 'ready', n: expect.any(Number) }]);
        } finally {
          await c.end();
        }
      }
    } finally {
      await restarted.stop('SIGTERM');
      await pgdb?.drop();
    }
    expect(acknowledged.length).toBeGreaterThanOrEqual(8);
  }, 400_000);
});
