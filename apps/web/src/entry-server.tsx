// Build-time only (scripts/prerender.mjs): the landing page's markup, rendered by the same
// tree main.tsx hydrates, under a static router at "/". Never part of the browser bundle.
import type { ReactNode } from 'react';
import { prerenderToNodeStream } from 'react-dom/static';
import { StaticRouter } from 'react-router';
import { App } from './app/app';

function LandingRouter({ children }: { children: ReactNode }) {
  return <StaticRouter location="/">{children}</StaticRouter>;
}

/** The HTML of the landing route as React renders it, waiting for anything that suspends. */
export async function renderLanding(): Promise<string> {
  const { prelude } = await prerenderToNodeStream(<App Router={LandingRouter} />);
  let html = '';
  for await (const chunk of prelude) html += chunk;
  return html;
}
