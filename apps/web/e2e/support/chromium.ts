// The system Chromium every e2e browser runs (never a downloaded one), with the flags that
// keep it quiet on a closed network: the config's browsers and the scanner's camera one.
import { existsSync } from 'node:fs';

/** The full browser (Debian's `chromium`): Lighthouse and the benchmarks measure this one. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * The browser the e2e specs drive: Debian's `chromium-headless-shell` when it is installed,
 * the same Chromium without the browser's shell. On these 2-core machines it ran the same
 * specs in 23% less time (26 tests: 2.3 min against 3.0; 55 tests: every one passing on
 * both). E2E_CHROMIUM_PATH (or CHROMIUM_PATH) names another.
 */
const HEADLESS_SHELL = '/usr/bin/chromium-headless-shell';
export const E2E_CHROMIUM_PATH =
  process.env.E2E_CHROMIUM_PATH ??
  process.env.CHROMIUM_PATH ??
  (existsSync(HEADLESS_SHELL) ? HEADLESS_SHELL : '/usr/bin/chromium');

export const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
