// Prerenders the landing page into dist/landing.html and the registration form into
// dist/register.html, which the server sends for exactly GET / and GET /register (every
// other path gets dist/index.html, the empty shell). Without them a page's text exists only
// once React has run: on a slow phone that put the largest paint ~2 s out. With them the
// page paints from the HTML and main.tsx hydrates those nodes in place, its scripts loaded
// once the page has painted (landing-boot.js). Both are rendered signed out: a visitor with
// a stored session is not hydrated into them (main.tsx).
//
// Runs after `vite build` (it takes the built index.html, with its hashed script and CSS
// tags, as the shell), before compress.mjs so the pages get their .br/.gz too.
//   node scripts/prerender.mjs [dist dir]
import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
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

  // The server bundle goes under apps/web/node_modules so its imports of react, react-dom
  // and react-router resolve to the very packages the client bundle was built from.
  const cache = path.join(webDir, 'node_modules', '.cache');
  mkdirSync(cache, { recursive: true });
  const ssrDir = mkdtempSync(path.join(cache, 'prerender-'));
  const rendered = [];
  try {
    await build({
      root: webDir,
      configFile: path.join(webDir, 'vite.config.ts'),
      logLevel: 'warn',
      mode: 'production',
      build: {
        ssr: 'src/entry-server.tsx',
        outDir: ssrDir,
        emptyOutDir: true,
        manifest: false,
        copyPublicDir: false,
        minify: false,
      },
      // The shared catalog is TypeScript source: bundled, not left to Node.
      ssr: { noExternal: ['@rally/shared'] },
    });
    const entry = readdirSync(ssrDir).find((f) => /^entry-server\.m?js$/.test(f));
    if (!entry) fail(`the server build wrote no entry-server.js in ${ssrDir}`);
    const { renderPage } = await import(pathToFileURL(path.join(ssrDir, entry)).href);
    for (const page of PAGES) rendered.push(await renderPage(page.location));
  } finally {
    rmSync(ssrDir, { recursive: true, force: true });
  }

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

  for (const [i, page] of PAGES.entries()) writePage(page, rendered[i], shell, ROOT, SCRIPT_TAGS, deferredScripts);
}

function writePage({ file, name, expect }, rendered, shell, ROOT, SCRIPT_TAGS, deferredScripts) {
  // React emits the page's hoisted <title> and <meta> tags (components/ui/page-meta.tsx)
  // ahead of the body markup when there is no <head> in the tree: they belong in the shell's
  // <head>, where hydration looks for them, in place of its generic <title>.
  const HOISTED = /^(?:<title>[^<]*<\/title>|<meta\b[^>]*\/?>|<link\b[^>]*\/?>)/;
  let head = '';
  let body = rendered;
  for (let m = HOISTED.exec(body); m; m = HOISTED.exec(body)) {
    head += m[0];
    body = body.slice(m[0].length);
  }

  // The CSP allows no inline script or style: a style attribute here would be blocked by the
  // browser and left unpatched by hydration. Components style through classes (or set styles
  // from effects, which the CSP allows).
  const problems = [];
  if (!body.includes('<main')) problems.push(`no <main> in the markup of ${name}`);
  if (!body.includes(expect)) problems.push(`no ${expect} in the markup of ${name}`);
  if (/<(script|style)\b/i.test(rendered)) problems.push('an inline <script> or <style> element');
  if (/\sstyle=/i.test(rendered)) problems.push(`a style attribute: ${/<[^>]*\sstyle=[^>]*>/i.exec(rendered)?.[0]}`);
  // <!--$!--> marks a Suspense boundary the server gave up on: the client would re-render it.
  if (rendered.includes('<!--$!-->')) problems.push('a Suspense boundary left to the client (<!--$!-->)');
  if (problems.length) fail(`${name} cannot be served under the CSP or hydrated: ${problems.join('; ')}`);

  let first = true;
  const page = shell
    .replace(/<title>[^<]*<\/title>/, (title) => (head.includes('<title>') ? head : title + head))
    .replace(SCRIPT_TAGS, () => {
      const replacement = first ? deferredScripts : '';
      first = false;
      return replacement;
    })
    .replace(ROOT, () => `<div id="root">${body}</div>`);
  const out = path.join(dist, file);
  writeFileSync(out, page);
  const shown = path.relative(process.cwd(), out);
  console.log(
    `Prerendered ${name}: ${shown.startsWith('..') ? out : shown} (${(Buffer.byteLength(page) / 1024).toFixed(1)} KB, ${head.match(/<(?!\/)/g)?.length ?? 0} tags in <head>)`,
  );
}

try {
  await main();
} catch (error) {
  console.error(`prerender: ${error instanceof PrerenderError ? error.message : (error.stack ?? error)}`);
  process.exitCode = 1;
}
