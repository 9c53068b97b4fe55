// GET /api/admin/event/stream: the board's live feed as Server-Sent Events.
// Authenticated like every route (Authorization: Bearer; browsers use a fetch-based
// event-source client). Headers go out at once; then every `scan`, `incident` and
// `course` event this instance hears on the database's channel, a heartbeat comment
// every ~20 s so proxies keep the connection, and `live` when the feed drops or returns
// (events are not replayed: a board that sees live:false→true refetches what it shows).
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { sseFrame } from '../../lib/event-bus';

export const HEARTBEAT_MS = 20_000;

export async function eventStreamRoutes(app: FastifyInstance, opts: { heartbeatMs?: number } = {}) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const open = new Set<() => void>();
  // Open streams never end by themselves; a closing server ends them so it can close.
  app.addHook('preClose', async () => {
    for (const end of [...open]) end();
  });

  r.get('/admin/event/stream', {
    config: { access: { permission: 'view_dashboard' } },
    schema: {
      tags: ['course'],
      description:
        'Server-Sent Events: `scan`, `incident` and `course` events whose JSON data names the rider (riderId, riderNumber, kitName); `live` with `{ live }` when the feed drops or returns; a comment line every ~20 s.',
      produces: ['text/event-stream'],
    },
    handler: (_request, reply) => stream(app, reply, open, opts.heartbeatMs ?? HEARTBEAT_MS),
  });
}

function stream(app: FastifyInstance, reply: FastifyReply, open: Set<() => void>, heartbeatMs: number) {
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

  const unsubscribe = app.eventBus.subscribe((event) => res.write(event.frame));
  const heartbeat = setInterval(() => res.write(': heartbeat\n\n'), heartbeatMs);
  heartbeat.unref();

  let ended = false;
  const end = () => {
    if (ended) return;
    ended = true;
    clearInterval(heartbeat);
    unsubscribe();
    open.delete(end);
    if (!res.writableEnded) res.end();
  };
  open.add(end);
  // The response closes when the client goes away (or the server ends it).
  res.on('close', end);
  res.on('error', end);
}
