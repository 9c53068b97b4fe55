import { createHash } from 'node:crypto';
import { brotliCompressSync, gzipSync, constants as zlibConstants } from 'node:zlib';
import { LIVE_MAX_AGE_SECONDS, liveResponse } from '@rally/shared/contracts/live';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client';
import { sendJson } from '../../lib/answer-cache';
import { responses } from '../../lib/route-helpers';
import { presentLive } from './live.presenter';
import { liveSnapshot } from './live.service';

/**
 * How long one computed answer may serve. Writes through this process drop it at once (the
 * answer cache) and so does every scan or course event from any instance (the event bus);
 * the bound covers what neither announces: the clock passing a cutoff, or events missed
 * while the bus's connection was down (then the shorter bound holds).
 */
const LIVE_RECOMPUTE_MS = { busLive: 30_000, busDown: 5_000 };

export async function liveRoutes(app: FastifyInstance, opts: { db: Db }) {
  const { db } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();
  // The ETag and compressed copies of the last answer, kept beside it: the cache hands back
  // the same string object until it recomputes, so a hit costs a reference comparison, not a
  // hash, and a crowd of phones gets ~10x fewer bytes (1,000 riders: ~200 KB of JSON) with
  // the compression done once per answer rather than once per request.
  let memo = { json: '', etag: '', gzip: Buffer.alloc(0), br: Buffer.alloc(0) };
  const remember = (json: string) => {
    const bytes = Buffer.from(json);
    memo = {
      json,
      // Weak: one tag for the JSON and its compressed forms, which carry the same answer.
      etag: `W/"${createHash('sha1').update(bytes).digest('base64url')}"`,
      gzip: gzipSync(bytes, { level: 6 }),
      br: brotliCompressSync(bytes, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 5 } }),
    };
  };
  // Bumped by every scan or course event, from any server instance on the database.
  let version = 0;
  const unsubscribe = app.eventBus.subscribe((event) => {
    if (event.type === 'scan' || event.type === 'course' || event.type === 'live') version++;
  });
  app.addHook('onClose', async () => unsubscribe());

  r.get('/live', {
    config: { access: 'public' },
    schema: {
      tags: ['live'],
      description:
        'The public live tracker: per route, every verified rider’s number, kit name, category, course state, last station and time, finishers with elapsed time and the DNF count. Station names and times are withheld until the event has started (first accepted start scan). No contact, medical, address, birthdate, GPS or incident data. Cached: ETag and a short max-age; If-None-Match answers 304.',
      response: responses({ 200: liveResponse }),
      'x-etag': true,
    },
    handler: async (request, reply) => {
      const now = app.clock.now();
      const bucket = Math.floor(now.getTime() / LIVE_RECOMPUTE_MS[app.eventBus.isLive ? 'busLive' : 'busDown']);
      const json = await app.answerCache.get(`live:${version}:${bucket}`, async () =>
        JSON.stringify(liveResponse.parse(presentLive(await liveSnapshot(db, now)))),
      );
      if (memo.json !== json) remember(json);
      reply
        .header('etag', memo.etag)
        .header('cache-control', `public, max-age=${LIVE_MAX_AGE_SECONDS}, must-revalidate`)
        .header('vary', 'accept-encoding');
      // The typed reply knows only the 200 schema; 304 carries no body (declared by x-etag).
      if (request.headers['if-none-match'] === memo.etag) return (reply as FastifyReply).code(304).send();
      const accepts = request.headers['accept-encoding'] ?? '';
      const encoded = /\bbr\b/.test(accepts) ? 'br' : /\bgzip\b/.test(accepts) ? 'gzip' : null;
      if (!encoded) return sendJson(reply, json);
      return (reply as FastifyReply)
        .header('content-encoding', encoded)
        .type('application/json; charset=utf-8')
        .send(encoded === 'br' ? memo.br : memo.gzip);
    },
  });
}
