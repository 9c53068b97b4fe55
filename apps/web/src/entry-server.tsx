// Server rendering: a page's markup, rendered by the same tree main.tsx hydrates, under a
// static router at the page's path, as a signed-out visitor sees it unless the page is one
// rendered for a signed-in rider (see the last sentence). Used at build time
// (scripts/prerender.mjs: the landing page and the registration form) and, built into
// dist/ssr/, at request time by the server (a rider's public profile, with its data). Never
// part of the browser bundle. A page rendered for a signed-in rider (My Profile) is drawn as
// that rider sees it, with the session under SESSION_SEED_KEY among its answers.
import { SESSION_SEED_KEY, type SeededQuery } from '@rally/shared/catalog/web-client';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { prerenderToNodeStream } from 'react-dom/static';
import { StaticRouter } from 'react-router';
import { App } from './app/app';
import type { User } from './lib/auth';
import { answerIn, QUERY_SEED_ID, serializeQuerySeed } from './lib/query-seed';

/** The build's index.html has exactly this empty root, which the page's markup fills. */
const ROOT = '<div id="root"></div>';

/**
 * The HTML of the route at `location` as React renders it, waiting for anything that
 * suspends, with `queries` already answered. Rejects when any part of the page fails to
 * render (rather than leaving that part to the client, as React would by itself).
 */
export async function renderPage(location: string, queries: readonly SeededQuery[] = []): Promise<string> {
  // A client per render: the browser's single one (lib/query-client.ts) would keep every
  // profile ever rendered in the server's memory and share it between requests.
  const client = new QueryClient({
    defaultOptions: { queries: { staleTime: Number.POSITIVE_INFINITY, retry: false } },
  });
  for (const query of queries) client.setQueryData(query.queryKey, query.data);
  // A page rendered for a signed-in rider (My Profile) carries the session the server checked.
  const session = answerIn(queries, SESSION_SEED_KEY) as User | undefined;
  // biome-ignore lint/correctness/noComponentHookFactories: one static render per call, never re-rendered
  function PageRouter({ children }: { children: ReactNode }) {
    return <StaticRouter location={location}>{children}</StaticRouter>;
  }
  const errors: unknown[] = [];
  const { prelude } = await prerenderToNodeStream(
    <QueryClientProvider client={client}>
      <App Router={PageRouter} session={session} />
    </QueryClientProvider>,
    {
      onError: (error) => void errors.push(error),
      // A Suspense boundary holding more markup than this is sent apart from its place in the
      // page, to be moved there by an inline script; the CSP refuses inline scripts, so every
      // boundary is kept in place (My Profile's details panel is over React's 12.8 KB default).
      progressiveChunkSize: Number.POSITIVE_INFINITY,
    },
  );
  let html = '';
  for await (const chunk of prelude) html += chunk;
  if (errors.length > 0) throw errors[0];
  return html;
}

/**
 * The document for the route at `location`: `shell` (the build's index.html, its scripts
 * deferred by prerender.mjs) with the page's markup in #root, the page's <title> and <meta>
 * in <head>, and the seeded answers inlined for lib/query-seed.ts. Throws when the markup
 * could not be served under the CSP or hydrated as it is.
 */
export async function renderDocument(
  shell: string,
  location: string,
  queries: readonly SeededQuery[] = [],
): Promise<string> {
  if (!shell.includes(ROOT)) throw new Error(`the shell has no empty ${ROOT}`);
  const rendered = await renderPage(location, queries);

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
  if (!body.includes('<main')) problems.push('no <main> in the markup');
  if (/<(script|style)\b/i.test(rendered)) problems.push('an inline <script> or <style> element');
  if (/\sstyle=/i.test(rendered)) problems.push(`a style attribute: ${/<[^>]*\sstyle=[^>]*>/i.exec(rendered)?.[0]}`);
  // <!--$!--> marks a Suspense boundary the server gave up on: the client would re-render it.
  if (rendered.includes('<!--$!-->')) problems.push('a Suspense boundary left to the client (<!--$!-->)');
  if (problems.length > 0)
    throw new Error(`${location} cannot be served under the CSP or hydrated: ${problems.join('; ')}`);

  // A data block, never run (so the CSP has nothing to refuse); see serializeQuerySeed for its escaping.
  const seed =
    queries.length > 0
      ? `<script type="application/json" id="${QUERY_SEED_ID}">${serializeQuerySeed(queries)}</script>`
      : '';
  return shell
    .replace(/<title>[^<]*<\/title>/, (title) => (head.includes('<title>') ? head : title + head))
    .replace(ROOT, () => `<div id="root">${body}</div>${seed}`);
}
