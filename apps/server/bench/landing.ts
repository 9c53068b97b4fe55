// Benchmark: the landing page and the riders' screens as a phone gets them. The web client
// is built into a private directory (other engineers may be rebuilding apps/web/dist at the
// same moment), the landing page's JavaScript before interaction is measured by the budget
// script the build itself uses, and Lighthouse's mobile preset audits the landing page,
// /register, /me (signed in as a verified rider) and that rider's public profile as served
// by the real server.
//
//   npx tsx apps/server/bench/landing.ts      (BENCH_WEB_DIST=<built dir> skips the build;
//   BENCH_PAGES=register,me audits only those (landing, register, me, user);
//   BENCH_LIGHTHOUSE_RUNS=3; BENCH_LIGHTHOUSE_SAVE=/tmp/lh writes each full report to
//   /tmp/lh-<page>-<n>.json)
import { execFile } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { chromium } from '@playwright/test';
import { SESSION_COOKIE } from '@rally/shared/catalog/web-client';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../web/e2e/support/chromium';
import { registrationFields } from '../src/test/factories';
import { startServer } from '../src/test/processes';
import {
  benchSignIn,
  createBenchAdmin,
  type PgliteTemplate,
  phoneFiles,
  registerVerifiedRider,
  repoRoot,
  runAsScript,
  SERVER_ENV,
  tempDir,
} from './common';

const run = promisify(execFile);

// The e2e suite's Chromium and its quiet-network flags, headless for chrome-launcher.
export const CHROMIUM = CHROMIUM_PATH;
const CHROME_FLAGS = ['--headless=new', ...CHROMIUM_ARGS];

export interface BuiltWeb {
  dir: string;
  /** Whether this run built it (and so removes it afterwards). */
  built: boolean;
  buildSeconds: number;
  remove(): void;
}

/** Vite's CLI as apps/web resolves it (its own node_modules, or the workspace's hoisted one). */
function viteBin(webDir: string): string {
  const local = path.join(webDir, 'node_modules/vite/bin/vite.js');
  return existsSync(local) ? local : path.join(repoRoot, 'node_modules/vite/bin/vite.js');
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
      [viteBin(webDir), 'build', '--outDir', dir, '--emptyOutDir', '--logLevel', 'warn'],
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
  /** Scripts alone, on the wire. */
  jsTransferKB: number;
  /** Every request the page made until Lighthouse stopped recording (the document included). */
  requests: number;
  warnings: string[];
}

export interface LighthouseReport {
  runs: LighthouseRun[];
  /** The run with the median score (Lighthouse's own advice for noisy machines). */
  median: LighthouseRun;
}

type Audits = Record<string, { numericValue?: number; details?: unknown }>;

interface NetworkItem {
  resourceType?: string;
  transferSize?: number;
  resourceSize?: number;
}

function networkItems(audits: Audits): NetworkItem[] {
  return (audits['network-requests']?.details as { items?: NetworkItem[] })?.items ?? [];
}

function jsCssBytes(items: NetworkItem[]): { transfer: number; resource: number; jsTransfer: number } {
  let transfer = 0;
  let resource = 0;
  let jsTransfer = 0;
  for (const r of items) {
    if (r.resourceType !== 'Script' && r.resourceType !== 'Stylesheet') continue;
    transfer += r.transferSize ?? 0;
    resource += r.resourceSize ?? 0;
    if (r.resourceType === 'Script') jsTransfer += r.transferSize ?? 0;
  }
  return { transfer, resource, jsTransfer };
}

function lcpElementOf(audits: Audits): string {
  // LCP element audit details: a list whose first table holds the node snippet.
  const details = audits['largest-contentful-paint-element']?.details as
    | { items?: { items?: { node?: { snippet?: string; nodeLabel?: string } }[] }[] }
    | undefined;
  const node = details?.items?.[0]?.items?.[0]?.node;
  return (node?.nodeLabel || node?.snippet || '').slice(0, 80);
}

/** A signed-in rider as the web client keeps it in localStorage (lib/storage.ts). */
export interface BrowserSession {
  token: string;
  user: unknown;
}

/**
 * Writes the session into the fresh browser as the web client stores it (lib/storage.ts: the
 * token and user in localStorage), with the page cookie the server sets with the session check
 * (lib/session-cookie.ts), before Lighthouse loads the page, from a same-origin URL that loads
 * none of the web client (so no script or style is cached).
 */
async function plantSession(port: number, origin: string, session: BrowserSession): Promise<void> {
  const browser = await chromium.connectOverCDP(`http://127.0.0.1:${port}`);
  try {
    const context = browser.contexts()[0];
    if (!context) throw new Error('no default browser context');
    const page = await context.newPage();
    await page.goto(`${origin}/api/health`);
    await page.evaluate(
      ([token, user]) => {
        localStorage.setItem('authToken', token);
        localStorage.setItem('userData', user);
      },
      [session.token, JSON.stringify(session.user)] as const,
    );
    // The browser context's own request client: the cookies it is answered with stay in the browser.
    const checked = await context.request.get(`${origin}/api/auth/profile`, {
      headers: { authorization: `Bearer ${session.token}` },
    });
    if (!checked.ok()) throw new Error(`session check failed: ${checked.status()}`);
    if (!(await context.cookies(`${origin}/me`)).some((c) => c.name === SESSION_COOKIE))
      throw new Error('the session check set no page cookie');
    await page.close();
  } finally {
    // Only disconnects: the browser belongs to chrome-launcher.
    await browser.close();
  }
}

/** Lighthouse's default (mobile) preset against `url`, in the system Chromium. */
export async function runLighthouse(url: string, runs = 1, session?: BrowserSession): Promise<LighthouseReport> {
  const results: LighthouseRun[] = [];
  // On a loaded machine Lighthouse sometimes loses its trace (NO_NAVSTART, NO_FCP): such a
  // run measured nothing and is made again, a few times at most.
  let retries = 3;
  for (let i = 0; i < runs; i++) {
    // A new browser per run: no warm HTTP cache or compiled code carries over.
    const chrome = await chromeLauncher.launch({ chromePath: CHROMIUM, chromeFlags: CHROME_FLAGS });
    try {
      if (session) await plantSession(chrome.port, new URL(url).origin, session);
      // Lighthouse clears the origin's storage before loading, which would sign the rider out;
      // the browser is new, so its HTTP cache is empty either way.
      const result = await lighthouse(
        url,
        { port: chrome.port, output: 'json', logLevel: 'error', disableStorageReset: Boolean(session) },
        undefined,
      );
      if (!result) throw new Error('Lighthouse returned no result');
      const lhr = result.lhr;
      // The full report, for digging into a miss (open it at https://googlechrome.github.io/lighthouse/viewer/).
      if (process.env.BENCH_LIGHTHOUSE_SAVE) {
        const name = new URL(url).pathname.replace(/\W+/g, '_').replace(/^_|_$/g, '') || 'landing';
        writeFileSync(`${process.env.BENCH_LIGHTHOUSE_SAVE}-${name}-${i + 1}.json`, JSON.stringify(lhr));
      }
      if (lhr.runtimeError) {
        if (retries-- > 0) {
          console.error(`  Lighthouse ${url}: ${lhr.runtimeError.code}, running again`);
          i--;
          continue;
        }
        throw new Error(`Lighthouse: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
      }
      const finalPath = new URL(lhr.finalDisplayedUrl).pathname;
      if (finalPath !== new URL(url).pathname) throw new Error(`Lighthouse: ${url} ended on ${finalPath}`);
      const audits = lhr.audits as Audits;
      const num = (id: string) => audits[id]?.numericValue ?? Number.NaN;
      const items = networkItems(audits);
      const bytes = jsCssBytes(items);
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
        jsTransferKB: bytes.jsTransfer / 1024,
        requests: items.length,
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

/** The rider screens audited beside the landing page. */
export const PAGES = ['landing', 'register', 'me', 'user'] as const;
export type PageName = (typeof PAGES)[number];

export interface PageAudit {
  page: PageName;
  /** The path audited (the public profile's carries the seeded rider's id). */
  path: string;
  signedIn: boolean;
  lighthouse: LighthouseReport;
}

export interface LandingReport {
  web: BuiltWeb;
  js: LandingJs;
  /** What the server answers a browser asking for the entry script compressed ('identity' = not compressed). */
  entryEncoding: string;
  /** The landing page's audit (the same as pages' "landing" entry). */
  lighthouse: LighthouseReport;
  /** Every page audited, the landing page first. */
  pages: PageAudit[];
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

/**
 * One verified rider with a profile photo, made through the real routes (registered, approved
 * by an admin created with the CLI, signed in): whose pass /me shows and whose public
 * profile /user/{id} is.
 */
async function seedRider(url: string, dataDir: string): Promise<{ id: string; session: BrowserSession }> {
  const admin = await createBenchAdmin(url, dataDir);
  const fields = registrationFields({ riderNumber: '7', paymentMethod: 'cash' });
  const photo = (await phoneFiles()).profile;
  await registerVerifiedRider(url, admin.token, fields, [
    { field: 'profileImage', filename: 'me.jpg', contentType: 'image/jpeg', data: photo },
  ]);
  const rider = await benchSignIn(url, fields.email ?? '');
  return { id: rider.data.user.id, session: { token: rider.token, user: rider.data.user } };
}

/**
 * Builds, measures the JavaScript, then audits each page served by a fresh real server:
 * the landing page, /register signed out, /me signed in as a verified rider, and that
 * rider's public profile signed out.
 */
export async function runLanding(
  template: PgliteTemplate,
  lighthouseRuns = 1,
  pages: readonly PageName[] = PAGES,
): Promise<LandingReport> {
  // The landing page is always audited: it is the yardstick the other pages are held to.
  const audited: PageName[] = ['landing', ...pages.filter((p) => p !== 'landing')];
  const web = await buildWeb();
  const data = template.copy();
  try {
    const js = await landingJs(web.dir);
    const server = await startServer({ DATA_DIR: data.path, WEB_DIST: web.dir, ...SERVER_ENV });
    try {
      const entryEncoding = await entryScriptEncoding(server.url);
      const rider = audited.some((p) => p === 'me' || p === 'user') ? await seedRider(server.url, data.path) : null;
      const audits: PageAudit[] = [];
      for (const page of audited) {
        const target =
          page === 'landing' ? '/' : page === 'register' ? '/register' : page === 'me' ? '/me' : `/user/${rider?.id}`;
        const session = page === 'me' ? rider?.session : undefined;
        console.error(`  Lighthouse ${target} (${lighthouseRuns} run${lighthouseRuns > 1 ? 's' : ''})...`);
        audits.push({
          page,
          path: target,
          signedIn: Boolean(session),
          lighthouse: await runLighthouse(`${server.url}${target}`, lighthouseRuns, session),
        });
      }
      const landing = audits.find((a) => a.page === 'landing');
      if (!landing) throw new Error('the landing page was not audited');
      return { web, js, entryEncoding, lighthouse: landing.lighthouse, pages: audits };
    } finally {
      await server.stop('SIGTERM');
    }
  } finally {
    data.remove();
    web.remove();
  }
}

/** BENCH_PAGES=register,me (default: all of PAGES; the landing page is audited in any case). */
export function pagesFromEnv(): PageName[] {
  const asked = process.env.BENCH_PAGES?.split(',').map((s) => s.trim());
  if (!asked) return [...PAGES];
  const unknown = asked.filter((p) => !(PAGES as readonly string[]).includes(p));
  if (unknown.length)
    throw new Error(`BENCH_PAGES: unknown page(s) ${unknown.join(', ')} (known: ${PAGES.join(', ')})`);
  return asked as PageName[];
}

runAsScript(import.meta.url, async (template) => {
  const r = await runLanding(template, Number(process.env.BENCH_LIGHTHOUSE_RUNS ?? 1), pagesFromEnv());
  console.log(`Landing JS before interaction: ${r.js.gzippedKB} KB gzipped (budget ${r.js.budgetKB} KB)`);
  console.log(`Entry script served with content-encoding: ${r.entryEncoding}`);
  for (const p of r.pages) {
    console.log(`${p.path}${p.signedIn ? ' (signed in)' : ''}: LCP element "${p.lighthouse.median.lcpElement}"`);
    console.table(p.lighthouse.runs.map(({ lcpElement: _, warnings: __, ...rest }) => rest));
  }
});
