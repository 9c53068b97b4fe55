// The web build's server renderer: dist/ssr/entry-server.js (the web client's React tree,
// apps/web/src/entry-server.tsx, with its dependencies bundled in) and dist/ssr/shell.html
// (the app shell with its scripts deferred, as the prerendered landing page has it), both
// written by apps/web/scripts/prerender.mjs. Loaded on the first page that needs it, never
// at start-up: React's server renderer and the whole client cost the idle server memory
// that most instances (and most of the day) never use.
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { brotliCompressSync, gzipSync, constants as zlibConstants } from 'node:zlib';
import type { SeededQuery } from '@rally/shared/catalog/web-client';
import type { FastifyReply, FastifyRequest } from 'fastify';

interface RenderModule {
  renderDocument(shell: string, location: string, queries: readonly SeededQuery[]): Promise<string>;
}

export interface PageRenderer {
  /** The HTML document of the web client's route at `location`, drawn with `queries` answered. */
  render(location: string, queries: readonly SeededQuery[]): Promise<string>;
}

/** The renderer of the build in `webDist`, or null when that build has none (built before it existed). */
export function openPageRenderer(webDist: string): PageRenderer | null {
  const dir = path.join(webDist, 'ssr');
  const entry = path.join(dir, 'entry-server.js');
  const shellFile = path.join(dir, 'shell.html');
  if (!existsSync(entry) || !existsSync(shellFile)) return null;
  let loading: Promise<{ module: RenderModule; shell: string }> | undefined;
  const load = () => {
    loading ??= Promise.all([
      import(pathToFileURL(entry).href) as Promise<RenderModule>,
      readFile(shellFile, 'utf8'),
    ]).then(([module, shell]) => ({ module, shell }));
    return loading;
  };
  return {
    async render(location, queries) {
      const { module, shell } = await load();
      return module.renderDocument(shell, location, queries);
    },
  };
}

/** Sends a rendered page compressed as the build's own pages are (their .br/.gz): a slow link pays per byte. */
export function sendPage(request: FastifyRequest, reply: FastifyReply, html: string): FastifyReply {
  reply.type('text/html; charset=utf-8');
  const accepts = request.headers['accept-encoding'] ?? '';
  if (/\bbr\b/.test(accepts))
    return reply
      .header('content-encoding', 'br')
      .send(brotliCompressSync(html, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 5 } }));
  if (/\bgzip\b/.test(accepts)) return reply.header('content-encoding', 'gzip').send(gzipSync(html, { level: 6 }));
  return reply.send(html);
}
