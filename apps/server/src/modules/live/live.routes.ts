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
 * How long one computed answer may serve. Every write through this process drops it at
 * once, and so does every event of a write that changes a rider's course (scan, review,
 * decision, rules, completion) on any server instance; the bound covers what publishes none: the clock passing a cutoff, a
 * station renamed, a rider newly verified, or events missed while the bus was down (then
 * the shorter bound holds).
 */
const LIVE_RECOMPUTE_MS = { busLive: 15_000, busDown: 5_000 };

/** One answer, serialised once, with its ETag and the compressed copies phones get. */
interface Answer {
  key: string;
  json: string;
  etag: string;
  gzip: Buffer;
  br: Buffer;
}

function answerOf(key: string, json: string): Answer {
  const bytes = Buffer.from(json);
  return {
    key,
    json,
    // Weak: one tag for the JSON and its compressed forms, which carry the same answer.
    etag: `W/"${createHash('sha1').update(bytes).digest('base64url')}"`,
    // ~200 KB of JSON for 1,000 riders becomes ~10x less, compressed once per answer.
    gzip: gzipSync(bytes, { level: 6 }),
    br: brotliCompressSync(bytes, { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 5 } }),
  };
}

export async function liveRoutes(app: FastifyInstance, opts: { db: Db }) {
  const { db } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();
  // Bumped by every scan or course event, and when the bus reconnects (it may have missed some).
  let version = 0;
  const unsubscribe = app.eventBus.subscribe((event) => {
    if (event.type === 'scan' || event.type === 'course' || event.type === 'live') version++;
  });
  // A write through this process drops the answer before its own reply leaves (the answer
  // cache's rule), so a reader never sees an answer older than a write they saw finish; the
  // bus's notification may come a moment later.
  const stopWrites = app.answerCache.onInvalidate(() => version++);
  app.addHook('onClose', async () => {
    unsubscribe();
    stopWrites();
  });

  // A single slot: the tracker has one answer. Concurrent misses share one computation, and
  // an answer computed while an event arrived is served to its waiters but not kept.
  let slot: Answer | null = null;
  let pending: { key: string; promise: Promise<Answer> } | null = null;
  const keyAt = (now: Date) =>
    `${version}:${Math.floor(now.getTime() / LIVE_RECOMPUTE_MS[app.eventBus.isLive ? 'busLive' : 'busDown'])}`;

  async function currentAnswer(): Promise<Answer> {
    const now = app.clock.now();
    const key = keyAt(now);
    if (slot?.key === key) return slot;
    if (pending?.key === key) return pending.promise;
    const promise = (async () =>
      answerOf(key, JSON.stringify(liveResponse.parse(presentLive(await liveSnapshot(db, now))))))();
    pending = { key, promise };
    try {
      const answer = await promise;
      if (keyAt(app.clock.now()) === key) slot = answer;
      return answer;
    } finally {
      if (pending?.promise === promise) pending = null;
    }
  }

  r.get('/live', {
    config: { access: 'public' },
    schema: {
      tags: ['live'],
      description:
        'The public live tracker: per route, every verified rider’s number, kit name, category, course state, last station and time, finishers with elapsed time and the DNF count. Station names and times are withheld until the event has started (first accepted start scan). No contact, medical, address, birthdate, GPS or incident data. Cached: a weak ETag and a short max-age; If-None-Match answers 304; sent compressed (br, gzip) when asked.',
      response: responses({ 200: liveResponse }),
      'x-etag': true,
    },
    handler: async (request, reply) => {
      const answer = await currentAnswer();
      reply
        .header('etag', answer.etag)
        .header('cache-control', `public, max-age=${LIVE_MAX_AGE_SECONDS}, must-revalidate`)
        .header('vary', 'accept-encoding');
      // The typed reply knows only the 200 schema; 304 carries no body (declared by x-etag).
      if (request.headers['if-none-match'] === answer.etag) return (reply as FastifyReply).code(304).send();
      const accepts = request.headers['accept-encoding'] ?? '';
      const encoded = /\bbr\b/.test(accepts) ? 'br' : /\bgzip\b/.test(accepts) ? 'gzip' : null;
      if (!encoded) return sendJson(reply, answer.json);
      return (reply as FastifyReply)
        .header('content-encoding', encoded)
        .type('application/json; charset=utf-8')
        .send(encoded === 'br' ? answer.br : answer.gzip);
    },
  });
}
