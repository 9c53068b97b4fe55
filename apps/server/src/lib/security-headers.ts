// Security headers (CSP, nosniff, frame and referrer policies …) computed once at start-up by
// helmet and copied onto every reply. @fastify/helmet calls `helmet(config)` again for every
// request, re-parsing the CSP directives: measured at 4% of the server's CPU on a public
// read. The headers depend only on the configuration, never on the request.
import { MAP_TILE_HOST } from '@rally/shared/catalog/landing';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import helmet, { type HelmetOptions } from 'helmet';

export const HELMET_OPTIONS: HelmetOptions = {
  contentSecurityPolicy: {
    directives: {
      defaultSrc: ["'self'"],
      // The scanner's QR decoder is WebAssembly (zxing), compiled from our own origin;
      // 'wasm-unsafe-eval' allows compiling it and nothing else (no eval, nothing inline).
      scriptSrc: ["'self'", "'wasm-unsafe-eval'"],
      // No inline styles either: the web client styles through its CSS files and the
      // DOM's style properties (which CSP allows), never through style attributes or tags.
      styleSrc: ["'self'"],
      imgSrc: ["'self'", 'data:', 'blob:', MAP_TILE_HOST, 'https://tile.openstreetmap.org'],
      fontSrc: ["'self'", 'data:'],
      connectSrc: ["'self'"],
      // Nothing is framed: PDF receipts open from a link (Chromium's viewer does not run in a sandboxed frame).
      frameSrc: ["'none'"],
      objectSrc: ["'none'"],
      baseUri: ["'self'"],
      formAction: ["'self'"],
      frameAncestors: ["'none'"],
      upgradeInsecureRequests: null,
    },
  },
  // No referrer ever leaves the site: reset links carry a token in their query.
  referrerPolicy: { policy: 'no-referrer' },
  frameguard: { action: 'deny' },
  crossOriginEmbedderPolicy: false,
  hsts: false,
};

/** One year, subdomains too: the rally's site is HTTPS-only once it has been served so. */
export const HSTS = 'max-age=31536000; includeSubDomains';

/** The headers helmet sets for `options`, read by running its middleware once on a recorder. */
export function helmetHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  helmet(options)({} as never, recorder as never, (err?: unknown) => {
    if (err) throw err;
  });
  return headers;
}

export const securityHeadersPlugin = fp(async (app: FastifyInstance) => {
  const headers = helmetHeaders(HELMET_OPTIONS);
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(headers);
    // HSTS only over HTTPS (directly, or as a trusted proxy reports it: TRUST_PROXY): a
    // browser ignores it over plain HTTP, and a local http://localhost must stay usable.
    if (request.protocol === 'https') reply.header('strict-transport-security', HSTS);
    done();
  });
});
