// Benchmark: the landing page as a rider's phone gets it. The web client is built into a
// private directory (other engineers may be rebuilding apps/web/dist at the same moment),
// its JavaScript before interaction is measured by the budget script the build itself
// uses, and Lighthouse's mobile preset audits it as served by the real server.
//
//   npx tsx apps/server/bench/landing.ts      (BENCH_WEB_DIST=<built dir> skips the build;
//   BENCH_LIGHTHOUSE_SAVE=/tmp/lh writes each full report to /tmp/lh-<n>.json)
import { execFile } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { cleanUpOnInterrupt, freshServer, PgliteTemplate, repoRoot, tempDir } from './common';

const run = promisify(execFile);

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
// The network is closed here: anything that would phone home only adds noise.
const CHROME_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

export interface BuiltWeb {
  dir: string;
  /** Whether this run built it (and so removes it afterwards). */
  built: boolean;
  buildSeconds: number;
  remove(): void;
}

/** A private production build of apps/web (as `npm run build` makes it: manifest on, prerendered, precompressed). */
export async function buildWeb(): Promise<BuiltWeb> {
  if (process.env.BENCH_WEB_DIST)
    return { dir: path.resolve(process.env.BENCH_WEB_DIST), built: false, buildSeconds: 0, remove: () => {} };
  const { path: dir, remove } = tempDir('rally-bench-web-');
  const webDir = path.join(repoRoot, 'apps/web');
  const t0 = performance.now();
  const opts = { cwd: webDir, maxBuffer: 16 * 1024 * 1024 };
  try {
    // The steps of apps/web's `npm run build`, minus the budget check (measured below instead,
    // so a build over budget still gets its figures): the Vite build, the landing page's
    // prerendered markup (dist/landing.html), then the .br/.gz the server sends.
    await run(
      process.execPath,
      [
        path.join(webDir, 'node_modules/vite/bin/vite.js'),
        'build',
        '--outDir',
        dir,
        '--emptyOutDir',
        '--logLevel',
        'warn',
      ],
      opts,
    );
    const prerender = path.join(webDir, 'scripts/prerender.mjs');
    if (existsSync(prerender)) await run(process.execPath, [prerender, dir], opts);
    await run(process.execPath, [path.join(webDir, 'scripts/compress.mjs')], {
      ...opts,
      env: { ...process.env, WEB_OUT_DIR: dir },
    });
  } catch (err) {
    remove();
    throw err;
  }
  return { dir, built: true, buildSeconds: (performance.now() - t0) / 1000, remove };
}

export interface LandingJs {
  gzippedKB: number;
  budgetKB: number;
  files: { file: string; kb: number }[];
}

/** Calls apps/web/scripts/check-budget.mjs on the build and reads its figures (it exits 1 over budget). */
export async function landingJs(dist: string): Promise<LandingJs> {
  const script = path.join(repoRoot, 'apps/web/scripts/check-budget.mjs');
  let stdout: string;
  try {
    ({ stdout } = await run(process.execPath, [script, dist]));
  } catch (err) {
    stdout = (err as { stdout?: string }).stdout ?? '';
  }
  const total = /JS before interaction: ([\d.]+) KB gzipped \(budget ([\d.]+) KB\)/.exec(stdout);
  if (!total) throw new Error(`check-budget printed no total:\n${stdout}`);
  const files = [...stdout.matchAll(/^\s+([\d.]+) KB\s+(\S+)$/gm)].map((m) => ({ file: m[2] ?? '', kb: Number(m[1]) }));
  return { gzippedKB: Number(total[1]), budgetKB: Number(total[2]), files };
}

export interface LighthouseRun {
  score: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  fcpMs: number;
  speedIndexMs: number;
  /** Lighthouse's own CPU yardstick: lower means a busier or slower machine. */
  benchmarkIndex: number;
  lcpElement: string;
  /** Scripts and stylesheets as Lighthouse saw them: bytes on the wire against bytes decoded. */
  jsCssTransferKB: number;
  jsCssResourceKB: number;
  warnings: string[];
}

export interface LighthouseReport {
  runs: LighthouseRun[];
  /** The run with the median score (Lighthouse's own advice for noisy machines). */
  median: LighthouseRun;
}

type Audits = Record<string, { numericValue?: number; details?: unknown }>;

function jsCssBytes(audits: Audits): { transfer: number; resource: number } {
  const items =
    (
      audits['network-requests']?.details as {
        items?: { resourceType?: string; transferSize?: number; resourceSize?: number }[];
      }
    )?.items ?? [];
  let transfer = 0;
  let resource = 0;
  for (const r of items) {
    if (r.resourceType !== 'Script' && r.resourceType !== 'Stylesheet') continue;
    transfer += r.transferSize ?? 0;
    resource += r.resourceSize ?? 0;
  }
  return { transfer, resource };
}

function lcpElementOf(audits: Audits): string {
  // LCP element audit details: a list whose first table holds the node snippet.
  const details = audits['largest-contentful-paint-element']?.details as
    | { items?: { items?: { node?: { snippet?: string; nodeLabel?: string } }[] }[] }
    | undefined;
  const node = details?.items?.[0]?.items?.[0]?.node;
  return (node?.nodeLabel || node?.snippet || '').slice(0, 80);
}

/** Lighthouse's default (mobile) preset against `url`, in the system Chromium. */
export async function runLighthouse(url: string, runs = 1): Promise<LighthouseReport> {
  const results: LighthouseRun[] = [];
  for (let i = 0; i < runs; i++) {
    // A new browser per run: no warm HTTP cache or compiled code carries over.
    const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: CHROME_FLAGS });
    try {
      const result = await lighthouse(url, { port: chrome.port, output: 'json', logLevel: 'error' }, undefined);
      if (!result) throw new Error('Lighthouse returned no result');
      const lhr = result.lhr;
      // The full report, for digging into a miss (open it at https://googlechrome.github.io/lighthouse/viewer/).
      if (process.env.BENCH_LIGHTHOUSE_SAVE)
        writeFileSync(`${process.env.BENCH_LIGHTHOUSE_SAVE}-${i + 1}.json`, JSON.stringify(lhr));
      if (lhr.runtimeError) throw new Error(`Lighthouse: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
      const audits = lhr.audits as Audits;
      const num = (id: string) => audits[id]?.numericValue ?? Number.NaN;
      const bytes = jsCssBytes(audits);
      results.push({
        score: Math.round((lhr.categories.performance?.score ?? 0) * 100),
        lcpMs: num('largest-contentful-paint'),
        tbtMs: num('total-blocking-time'),
        cls: num('cumulative-layout-shift'),
        fcpMs: num('first-contentful-paint'),
        speedIndexMs: num('speed-index'),
        benchmarkIndex: lhr.environment.benchmarkIndex,
        lcpElement: lcpElementOf(audits),
        jsCssTransferKB: bytes.transfer / 1024,
        jsCssResourceKB: bytes.resource / 1024,
        warnings: lhr.runWarnings.map(String),
      });
    } finally {
      chrome.kill();
    }
  }
  const sorted = [...results].sort((a, b) => a.score - b.score);
  const median = sorted[Math.floor((sorted.length - 1) / 2)];
  if (!median) throw new Error('Lighthouse made no run');
  return { runs: results, median };
}

export interface LandingReport {
  web: BuiltWeb;
  js: LandingJs;
  /** What the server answers a browser asking for the entry script compressed ('identity' = not compressed). */
  entryEncoding: string;
  lighthouse: LighthouseReport;
}

/** The Content-Encoding the real server gives the page's entry script when a browser accepts br and gzip. */
async function entryScriptEncoding(baseUrl: string): Promise<string> {
  const html = await (await fetch(`${baseUrl}/`)).text();
  const src = /<script[^>]+type="module"[^>]+src="([^"]+)"/.exec(html)?.[1];
  if (!src) return 'no entry script found';
  const res = await fetch(new URL(src, `${baseUrl}/`), { headers: { 'accept-encoding': 'br, gzip' } });
  await res.arrayBuffer();
  return res.headers.get('content-encoding') ?? 'identity';
}

/** Builds, measures the JavaScript, then audits the page served by a fresh real server. */
export async function runLanding(template: PgliteTemplate, lighthouseRuns = 1): Promise<LandingReport> {
  const web = await buildWeb();
  try {
    const js = await landingJs(web.dir);
    const server = await freshServer('pglite', template, { WEB_DIST: web.dir });
    try {
      const entryEncoding = await entryScriptEncoding(server.url);
      const lh = await runLighthouse(`${server.url}/`, lighthouseRuns);
      return { web, js, entryEncoding, lighthouse: lh };
    } finally {
      await server.close();
    }
  } finally {
    web.remove();
  }
}

async function main() {
  cleanUpOnInterrupt();
  const template = await PgliteTemplate.create();
  try {
    const r = await runLanding(template, Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 1));
    console.log(`Landing JS before interaction: ${r.js.gzippedKB} KB gzipped (budget ${r.js.budgetKB} KB)`);
    console.log(`Entry script served with content-encoding: ${r.entryEncoding}`);
    console.table(r.lighthouse.runs);
  } finally {
    template.dispose();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  main().catch((err) => {
    console.error(err);
    process.exit(1);
  });
}
