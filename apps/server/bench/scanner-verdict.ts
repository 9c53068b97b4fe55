// Benchmark: the marshal scanner's verdict time (issue 14: ≤ 300 ms p95 from input to the
// verdict on screen, online or not). The real server on a fresh embedded database holds
// 1,000 verified riders (registered and approved through the real routes, some with a
// profile photo); Chromium opens /scan from a production build, downloads the roster into
// IndexedDB, and 200 different riders are typed in one after another. The page measures
// each verdict itself (performance.measure 'scan-verdict': from the submitted number to
// the first frame painted after it), so the figure excludes the test driver. Run once as
// is, and once with the CPU slowed 4x (Chrome's own emulation of a mid-range phone).
//
//   npx tsx apps/server/bench/scanner-verdict.ts
//   BENCH_WEB_DIST=<built dir> skips the build; BENCH_SCAN_RIDERS (1000), BENCH_SCANS (200)
import { chromium } from '@playwright/test';
import { registrationFields } from '../src/test/factories';
import { startServer } from '../src/test/processes';
import {
  benchJson,
  createBenchAdmin,
  type PgliteTemplate,
  percentile,
  phoneFiles,
  registerVerifiedRider,
  runAsScript,
  SERVER_ENV,
} from './common';
import { buildWeb, CHROMIUM } from './landing';

export interface VerdictRun {
  cpuSlowdown: number;
  scans: number;
  p50: number;
  p95: number;
  max: number;
}

export interface ScannerVerdictReport {
  riders: number;
  seedSeconds: number;
  rosterSeconds: number;
  runs: VerdictRun[];
}

const log = (line: string) => console.error(line);

/** Riders 1..count, registered (cash) and approved, four at a time (the server's hashing pool). */
async function seedRiders(url: string, adminToken: string, count: number, photo: Buffer) {
  const numbers = Array.from({ length: count }, (_, i) => i + 1);
  const worker = async () => {
    for (let n = numbers.shift(); n !== undefined; n = numbers.shift()) {
      // Every tenth rider has a photo, so verdicts show both a photo and the initials.
      const files =
        n % 10 === 1 ? [{ field: 'profileImage', filename: 'me.jpg', contentType: 'image/jpeg', data: photo }] : [];
      await registerVerifiedRider(
        url,
        adminToken,
        registrationFields({ riderNumber: String(n), paymentMethod: 'cash', category: n % 2 ? 'lakan' : 'bagani' }),
        files,
      );
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
}

export async function runScannerVerdict(
  template: PgliteTemplate,
  opts = { riders: Number(process.env.BENCH_SCAN_RIDERS ?? 1000), scans: Number(process.env.BENCH_SCANS ?? 200) },
): Promise<ScannerVerdictReport> {
  const web = await buildWeb();
  const dir = template.copy();
  const server = await startServer({ DATA_DIR: dir.path, WEB_DIST: web.dir, ...SERVER_ENV });
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox', '--disable-gpu'] });
  try {
    const login = await createBenchAdmin(server.url, dir.path);
    const auth = { 'content-type': 'application/json', authorization: `Bearer ${login.token}` };
    const station = await benchJson<{ data: { id: string; name: string } }>(
      await fetch(`${server.url}/api/admin/stations`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ name: 'Bench checkpoint', kind: 'checkpoint' }),
      }),
    );

    log(`  seeding ${opts.riders} verified riders over HTTP...`);
    const t0 = performance.now();
    await seedRiders(server.url, login.token, opts.riders, (await phoneFiles()).profile);
    const seedSeconds = (performance.now() - t0) / 1000;

    const context = await browser.newContext({ baseURL: server.url, viewport: { width: 412, height: 915 } });
    const page = await context.newPage();
    await page.goto('/forgot-password');
    await page.evaluate(
      ([t, u, s]) => {
        localStorage.setItem('authToken', t);
        localStorage.setItem('userData', u);
        localStorage.setItem('rally.scanner.stationId', s);
      },
      [login.token, JSON.stringify(login.data.user), station.data.id] as const,
    );
    const t1 = performance.now();
    await page.goto('/scan');
    await page.getByText(`${opts.riders} riders on device`).waitFor({ timeout: 120_000 });
    const rosterSeconds = (performance.now() - t1) / 1000;

    const runs: VerdictRun[] = [];
    const field = page.getByLabel('Rider number');
    const cdp = await context.newCDPSession(page);
    let next = 1;
    for (const cpuSlowdown of [1, 4]) {
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: cpuSlowdown });
      await page.evaluate(() => performance.clearMeasures('scan-verdict'));
      for (let i = 0; i < opts.scans; i++) {
        const number = next;
        next = (next % opts.riders) + 1;
        await field.fill(String(number));
        await field.press('Enter');
        await page.waitForFunction((n) => performance.getEntriesByName('scan-verdict').length >= n, i + 1);
      }
      const times = (
        await page.evaluate(() => performance.getEntriesByName('scan-verdict').map((m) => m.duration))
      ).sort((a, b) => a - b);
      runs.push({
        cpuSlowdown,
        scans: times.length,
        p50: percentile(times, 0.5),
        p95: percentile(times, 0.95),
        max: times.at(-1) ?? Number.NaN,
      });
    }
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
    return { riders: opts.riders, seedSeconds, rosterSeconds, runs };
  } finally {
    await browser.close();
    await server.stop('SIGTERM');
    dir.remove();
    web.remove();
  }
}

export function printScannerVerdict(report: ScannerVerdictReport) {
  console.log(
    `Scanner verdict time (/scan, ${report.riders} riders cached; seeding ${report.seedSeconds.toFixed(0)} s, roster download ${report.rosterSeconds.toFixed(1)} s)`,
  );
  for (const r of report.runs) {
    console.log(
      `  CPU ${r.cpuSlowdown}x: ${r.scans} typed scans, p50 ${r.p50.toFixed(1)} ms, p95 ${r.p95.toFixed(1)} ms, max ${r.max.toFixed(1)} ms (goal p95 ≤ 300 ms)`,
    );
  }
}

runAsScript(import.meta.url, async (template) => {
  printScannerVerdict(await runScannerVerdict(template));
});
