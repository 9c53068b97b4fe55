// Prerenders the landing page into dist/landing.html and the registration form into
// dist/register.html, which the server sends for exactly GET / and GET /register. Without them
// a page's text exists only once React has run: on a slow phone that put the largest paint
// ~2 s out. With them the page paints from the HTML and main.tsx hydrates those nodes in
// place, its scripts loaded once the page has painted (landing-boot.js). Both are rendered
// signed out: a visitor with a stored session is not hydrated into /register (main.tsx).
//
// It also leaves the renderer in dist/ssr/ for the server, which renders a rider's public
// profile (/user/{id}) per request with its data: entry-server.js (src/entry-server.tsx with
// every dependency bundled in, so it imports from wherever the build is put) and shell.html
// (the shell with its scripts deferred, as the prerendered pages have it). Every other path
// gets dist/index.html, the empty shell.
//
// Runs after `vite build` (it takes the built index.html, with its hashed script and CSS
// tags, as the shell), before compress.mjs so the pages get their .br/.gz too.
//   node scripts/prerender.mjs [dist dir]
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { build } from 'vite';

// React's production server build, as the browser runs its production client.
process.env.NODE_ENV = 'production';

const webDir = path.resolve(import.meta.dirname, '..');
const dist = process.argv[2] ? path.resolve(process.argv[2]) : path.join(webDir, 'dist');

/** Each prerendered page: the route rendered, the file written, and text its markup must hold. */
const PAGES = [
  { location: '/', file: 'landing.html', name: 'the landing page', expect: '<main' },
  { location: '/register', file: 'register.html', name: 'the registration form', expect: '<form' },
];

class PrerenderError extends Error {}
function fail(message) {
  throw new PrerenderError(message);
}

async function main() {
  let shell;
  try {
    shell = readFileSync(path.join(dist, 'index.html'), 'utf8');
  } catch (error) {
    fail(`cannot read ${path.join(dist, 'index.html')} (run vite build first): ${error.message}`);
  }
  const ROOT = '<div id="root"></div>';
  if (!shell.includes(ROOT)) fail(`the built index.html has no empty ${ROOT}`);
  if (!/<title>[^<]*<\/title>/.test(shell)) fail('the built index.html has no <title>');

  // The renderer, for this script and for the server (which imports it at run time from
  // wherever the build is deployed): dependencies bundled in, React's production build chosen
  // here rather than by the server's NODE_ENV, as the browser runs its production client.
  const ssrDir = path.join(dist, 'ssr');
  await build({
    root: webDir,
    configFile: path.join(webDir, 'vite.config.ts'),
    logLevel: 'warn',
    mode: 'production',
    define: { 'process.env.NODE_ENV': JSON.stringify('production') },
    build: {
      ssr: 'src/entry-server.tsx',
      outDir: ssrDir,
      emptyOutDir: true,
      manifest: false,
      copyPublicDir: false,
      minify: false,
    },
    ssr: { noExternal: true },
  });
  const entry = readdirSync(ssrDir).find((f) => /^entry-server\.m?js$/.test(f));
  if (!entry) fail(`the server build wrote no entry-server.js in ${ssrDir}`);
  const { renderDocument } = await import(pathToFileURL(path.join(ssrDir, entry)).href);

  // The app's scripts only hydrate what is already on screen: they go inert into a <template>
  // that landing-boot.js turns into live tags once the page has painted (see there why).
  const SCRIPT_TAGS = /<script\b[^>]*\btype="module"[^>]*><\/script>\s*|<link\b[^>]*\brel="modulepreload"[^>]*>\s*/g;
  const scriptTags = shell.match(SCRIPT_TAGS) ?? [];
  if (scriptTags.filter((tag) => tag.startsWith('<script')).length !== 1)
    fail(`expected one module <script> in the built index.html, found: ${scriptTags.join(' ')}`);
  const boot = readFileSync(path.join(webDir, 'scripts', 'landing-boot.js'));
  const bootFile = `assets/landing-boot-${createHash('sha256').update(boot).digest('base64url').slice(0, 8)}.js`;
  writeFileSync(path.join(dist, bootFile), boot);
  const deferredScripts =
    `<template id="app-scripts">${scriptTags.map((tag) => tag.trim()).join('')}</template>\n` +
    `    <script type="module" src="/${bootFile}"></script>\n    `;

  let first = true;
  const deferredShell = shell.replace(SCRIPT_TAGS, () => {
    const replacement = first ? deferredScripts : '';
    first = false;
    return replacement;
  });
  writeFileSync(path.join(ssrDir, 'shell.html'), deferredShell);

  for (const { location, file, name, expect } of PAGES) {
    let page;
    try {
      page = await renderDocument(deferredShell, location);
    } catch (error) {
      fail(`${name}: ${error.message}`);
    }
    if (!page.includes(expect)) fail(`no ${expect} in the markup of ${name}`);
    const out = path.join(dist, file);
    writeFileSync(out, page);
    const shown = path.relative(process.cwd(), out);
    console.log(
      `Prerendered ${name}: ${shown.startsWith('..') ? out : shown} (${(Buffer.byteLength(page) / 1024).toFixed(1)} KB)`,
    );
  }
}

try {
  await main();
} catch (error) {
  console.error(`prerender: ${error instanceof PrerenderError ? error.message : (error.stack ?? error)}`);
  process.exitCode = 1;
}
