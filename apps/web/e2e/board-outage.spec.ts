// The control board across a PostgreSQL restart (issue 45), on the PostgreSQL project only:
// the worker's database is closed to connections and every connection to it is cut, as a
// restart does. The board says "Reconnecting..." instead of "Live" while it hears nothing,
// "Live" again once the database is back, and a scan recorded after the outage reaches it
// without a reload.
import { randomUUID } from 'node:crypto';
import { apiLogin, bearer, signInWithToken } from './support/api';
import { createUser } from './support/cli';
import { expect, test } from './support/fixtures';
import { verifiedRiders } from './support/scanner';
import { adminQuery, SETUP_ENV } from './support/servers';

// The latest day a station may have, as board-live.spec.ts uses: the board opens on it.
const DAY = 30;

test('the board says Reconnecting while its database is away, then Live, and hears the next scan', async ({
  page,
  request,
  server,
  database,
}) => {
  test.skip(database !== 'postgres', 'a restart of PostgreSQL; the embedded database is in the process');
  test.setTimeout(90_000);
  const adminUrl = process.env[SETUP_ENV.postgresAdminUrl] as string;
  const name = new URL(server.databaseUrl as string).pathname.slice(1);
  const admin = await apiLogin(request, createUser('admin').email);
  const [before, after] = await verifiedRiders(request, admin.token, 2);
  if (!before || !after) throw new Error('riders not made');
  const tag = randomUUID().slice(0, 5);
  const res = await request.post('/api/admin/stations', {
    headers: bearer(admin.token),
    data: { name: `Outage ${tag}`, kind: 'start', day: DAY, order: 0 },
  });
  expect(res.status(), await res.text()).toBe(201);
  const stationId = (await res.json()).data.id as string;

  const sync = async (riderCode: string) => {
    const scan = await request.post('/api/admin/scans', {
      headers: bearer(admin.token),
      data: {
        scans: [
          {
            id: randomUUID(),
            stationId,
            riderCode,
            scannedAt: new Date().toISOString(),
            deviceId: 'e2e-outage-phone',
            source: 'camera',
          },
        ],
      },
    });
    expect(scan.ok(), await scan.text()).toBeTruthy();
  };
  // A passage first, so the board opens on this test's day (the latest with one).
  await sync(before.riderCode);
  const passed = page
    .locator(`[data-testid="board-station"][data-station="Outage ${tag}"]`)
    .getByTestId('count-passed');

  await signInWithToken(page, admin.token, admin.user);
  await page.goto('/admin?tab=event-day');
  const status = page.getByTestId('control-board').getByTestId('stream-status');
  await expect(status).toHaveAttribute('data-status', 'live');
  await expect(passed).toHaveAccessibleName(/^1 Passed/);

  await adminQuery(adminUrl, `alter database ${name} allow_connections false`);
  try {
    await adminQuery(
      adminUrl,
      `select pg_terminate_backend(pid) from pg_stat_activity where datname = '${name}' and pid <> pg_backend_pid()`,
    );
    await expect(status).toHaveAttribute('data-status', 'down');
    await expect(status).toHaveText('Reconnecting...');
  } finally {
    await adminQuery(adminUrl, `alter database ${name} allow_connections true`);
  }
  await expect(status).toHaveAttribute('data-status', 'live', { timeout: 15_000 });

  await sync(after.riderCode);
  await expect(passed).toHaveAccessibleName(/^2 Passed/);
});
