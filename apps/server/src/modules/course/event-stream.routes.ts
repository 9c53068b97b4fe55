// GET /api/admin/event/stream: the board's live feed as Server-Sent Events.
// Authenticated like every route (Authorization: Bearer; browsers use a fetch-based
// event-source client). Headers go out at once; then every `scan`, `incident` and
// `course` event this instance hears on the database's channel, a heartbeat comment
// every ~20 s so proxies keep the connection, and `live` when the feed drops or returns
// (events are not replayed: a board that sees live:false→true refetches what it shows).
//
// A stream lives no longer than the right to read it: before events are written (one check
// for a burst) and at each heartbeat the session is looked up again, and a signed-out,
// deactivated or demoted account's stream ends without them. An account holds at most
// MAX_STREAMS_PER_ACCOUNT streams on an instance.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client';
import { type Access, accessAllows, findSession, requireAuth } from '../../lib/authorize';
import { TooManyRequestsError } from '../../lib/errors';
import { sseFrame } from '../../lib/event-bus';

export const HEARTBEAT_MS = 20_000;
/** A console on a phone, a laptop and a few tabs; more from one account is a leak or abuse. */
export const MAX_STREAMS_PER_ACCOUNT = 5;

const ACCESS: Access = { permission: 'view_dashboard' };

interface StreamOptions {
  db: Db;
  heartbeatMs?: number;
}

export async function eventStreamRoutes(app: FastifyInstance, opts: StreamOptions) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const open = new Set<() => void>();
  const perAccount = new Map<string, number>();
  // Open streams never end by themselves; a closing server ends them so it can close.
  app.addHook('preClose', async () => {
    for (const end of [...open]) end();
  });

  r.get('/admin/event/stream', {
    config: { access: ACCESS },
    schema: {
      tags: ['course'],
      description:
        'Server-Sent Events: `scan`, `incident` and `course` events whose JSON data names the rider (riderId, riderNumber, kitName); `live` with `{ live }` when the feed drops or returns; a comment line every ~20 s.',
      produces: ['text/event-stream'],
    },
    handler: (request, reply) => {
      const { userId } = requireAuth(request);
      const held = perAccount.get(userId) ?? 0;
      if (held >= MAX_STREAMS_PER_ACCOUNT)
        throw new TooManyRequestsError(
          `This account already has ${MAX_STREAMS_PER_ACCOUNT} live feeds open. Close another console tab and try again.`,
        );
      perAccount.set(userId, held + 1);
      const release = () => {
        const left = (perAccount.get(userId) ?? 1) - 1;
        if (left > 0) perAccount.set(userId, left);
        else perAccount.delete(userId);
      };
      stream(app, request, reply, { open, release, db: opts.db, heartbeatMs: opts.heartbeatMs ?? HEARTBEAT_MS });
    },
  });
}

/** The token the stream was opened with (the access hook has already accepted it). */
function tokenOf(request: FastifyRequest): string {
  return /^Bearer\s+(\S+)$/.exec(request.headers.authorization?.trim() ?? '')?.[1] ?? '';
}

function stream(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  ctx: { open: Set<() => void>; release: () => void; db: Db; heartbeatMs: number },
) {
  const token = tokenOf(request);
  reply.hijack();
  const res = reply.raw;
  res.writeHead(200, {
    ...(reply.getHeaders() as Record<string, string>),
    'content-type': 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache, no-transform',
    connection: 'keep-alive',
    // nginx buffers proxied answers unless told not to.
    'x-accel-buffering': 'no',
  });
  res.flushHeaders();
  // A first line at once: clients (and proxies) see the stream is open; `retry` paces reconnects.
  res.write(`retry: 3000\n: connected\n\n${sseFrame('live', { live: app.eventBus.isLive })}`);

  let ended = false;
  const write = (frame: string) => {
    if (!ended) res.write(frame);
  };

  // Frames wait here while the session is looked up again; one lookup serves a burst.
  let waiting: string[] = [];
  let checking = false;
  const stillAllowed = async () => {
    const session = await findSession(ctx.db, token).catch(() => null);
    return !!session && session.status === 'active' && accessAllows(ACCESS, session) === 'ok';
  };
  const deliver = (frame: string | null) => {
    if (ended) return;
    if (frame) waiting.push(frame);
    if (checking) return;
    checking = true;
    void stillAllowed().then((allowed) => {
      checking = false;
      if (!allowed) return end();
      const frames = waiting;
      waiting = [];
      for (const f of frames) write(f);
      // Events that came during the lookup get their own.
      if (waiting.length > 0) deliver(null);
    });
  };

  const unsubscribe = app.eventBus.subscribe((event) => deliver(event.frame));
  const heartbeat = setInterval(() => deliver(': heartbeat\n\n'), ctx.heartbeatMs);
  heartbeat.unref();

  const end = () => {
    if (ended) return;
    ended = true;
    clearInterval(heartbeat);
    unsubscribe();
    ctx.open.delete(end);
    ctx.release();
    waiting = [];
    if (!res.writableEnded) res.end();
  };
  ctx.open.add(end);
  // The response closes when the client goes away (or the server ends it).
  res.on('close', end);
  res.on('error', end);
}
