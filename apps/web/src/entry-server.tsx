// Build-time only (scripts/prerender.mjs): a page's markup, rendered by the same tree main.tsx
// hydrates, under a static router at the page's path, as a signed-out visitor sees it (there
// is no stored session at build time). Never part of the browser bundle.
import type { ReactNode } from 'react';
import { prerenderToNodeStream } from 'react-dom/static';
import { StaticRouter } from 'react-router';
import { App } from './app/app';

/** The HTML of the route at `location` as React renders it, waiting for anything that suspends. */
export async function renderPage(location: string): Promise<string> {
  // biome-ignore lint/correctness/noComponentHookFactories: one static render per call, never re-rendered
  function PageRouter({ children }: { children: ReactNode }) {
    return <StaticRouter location={location}>{children}</StaticRouter>;
  }
  const { prelude } = await prerenderToNodeStream(<App Router={PageRouter} />);
  let html = '';
  for await (const chunk of prelude) html += chunk;
  return html;
}
