// Runs once before the e2e workers start: the builds they serve, and the migrated databases
// every worker's server copies (support/servers.ts). Returns the teardown.
import { execFileSync, execSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './env';
import { adminQuery, databaseUrl, runCli, SETUP_ENV } from './servers';

export default async function globalSetup(): Promise<() => Promise<void>> {
  // The server serves apps/web/dist (or E2E_WEB_DIST, e.g. a private build while others
  // rebuild dist): build it once if it is missing, so a bare `npm run test:e2e` works.
  if (!process.env.E2E_WEB_DIST && !existsSync(join(ROOT, 'apps/web/dist/index.html'))) {
    execSync('npm run build -w @rally/web', { cwd: ROOT, stdio: 'inherit' });
  }
  // Every worker runs the built server; built here once, so no two race to build it.
  const fresh = spawnSync(process.execPath, [join(ROOT, 'scripts/freshness.mjs'), 'check', 'server']);
  if (fresh.status !== 0) execFileSync(process.execPath, [join(ROOT, 'apps/server/scripts/build.mjs')]);

  const runId = `${Date.now().toString(36)}${process.pid}`;
  const runDir = join(ROOT, '.tmp', `e2e-${runId}`);
  const template = join(runDir, 'template');
  mkdirSync(template, { recursive: true });
  runCli(['migrate'], { dataDir: template });
  process.env[SETUP_ENV.runDir] = runDir;
  process.env[SETUP_ENV.dataDirTemplate] = template;

  const admin = process.env[SETUP_ENV.postgresAdminUrl];
  const pgTemplate = `rally_e2e_${runId}`;
  if (admin) {
    await adminQuery(admin, `create database ${pgTemplate}`);
    runCli(['migrate'], { dataDir: template, databaseUrl: databaseUrl(admin, pgTemplate) });
    process.env[SETUP_ENV.postgresTemplate] = pgTemplate;
  }

  return async () => {
    if (admin) await adminQuery(admin, `drop database if exists ${pgTemplate} with (force)`);
    // Each worker dropped its own database; the data directories go with the run.
    rmSync(runDir, { recursive: true, force: true });
  };
}
