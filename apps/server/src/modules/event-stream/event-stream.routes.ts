// GET /api/admin/event/stream: the board's live feed as Server-Sent Events.
// Authenticated like every route (Authorization: Bearer; browsers use a fetch-based
// event-source client). Headers go out at once; then every `scan`, `incident` and
// `course` event this instance hears on the database's channel, a heartbeat comment
// every ~20 s so proxies keep the connection, and `live` when the feed drops or returns
// (events are not replayed: a board that sees live:false→true refetches what it shows).
//
// A stream lives no longer than the right to read it: before events are written (one check
// for a burst) and at each heartbeat the session is looked up again, and a signed-out,
// deactivated or demoted account's stream ends without them. A lookup the database cannot
// answer (a restart, a failover) decides nothing: the stream goes on as it was allowed a
// moment ago, says `live: false` as its feed drops, and is checked again at the next
// heartbeat. The heartbeat itself never waits on the database. An account holds at most
// MAX_STREAMS_PER_ACCOUNT streams on an instance. A client that reads slower than events come
// gets no unbounded buffer on the server: see the backpressure note in stream() below.
// Some events reach only streams of accounts holding a permission (RESTRICTED_EVENTS):
// `position` (a tracked rider's last position, DESIGN.md §11) only handle_incidents, so
// nobody else sees a live position; `receipt` (a receipt processed or read, §13) only
// verify_users, the desk's. The role is read again at every session lookup, so a demoted
// account stops getting them with its next batch.
import type { EventTypeName } from '@rally/shared/catalog/event-day';
import type { SensitiveKind } from '@rally/shared/catalog/privacy';
import { can, type Permission } from '@rally/shared/permissions';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client';
import { actorOf } from '../../lib/actor';
import { type Access, bearerToken, checkAccess, requireAuth } from '../../lib/authorize';
import { TooManyRequestsError } from '../../lib/errors';
import { type DeliveredEvent, sseFrame } from '../../lib/event-bus';
import { recordAccess } from '../data-access/data-access.service';

export const HEARTBEAT_MS = 20_000;
/** A console on a phone, a laptop and a few tabs; more from one account is a leak or abuse. */
export const MAX_STREAMS_PER_ACCOUNT = 5;
/** How long a stream may stay unable to take more (its client not reading) before it is closed. */
export const STALL_MS = 30_000;
/**
 * The most one stream's frames may take while its session is looked up again, written at once
 * after: past it, events are dropped (and caught up on). Far above a real burst (500 scans are
 * about 150 KB), and with the socket's high-water mark what a stream can hold at most.
 */
export const MAX_BATCH_BYTES = 256 * 1024;
/** How long a session lookup may take before the stream stops waiting for it (and keeps going). */
export const CHECK_TIMEOUT_MS = 5_000;

interface Frame {
  frame: string;
  /** False for a comment (the heartbeat), which carries nothing to catch up on. */
  isEvent: boolean;
  /** The event's type: a restricted one is written only while the account may read it. */
  type?: EventTypeName;
  /** A `position` event's rider: the first one a stream carries is logged (who looked). */
  riderId?: string;
}

type Role = Parameters<typeof can>[0];

/** Events only holders of a permission may read; every other event goes to every stream. */
const RESTRICTED_EVENTS: Partial<Record<EventTypeName, Permission>> = {
  position: 'handle_incidents',
  receipt: 'verify_users',
};

/** Whether an account of this role may read events of this type on its stream. */
const mayRead = (role: Role, type: EventTypeName | undefined) => {
  const permission = type && RESTRICTED_EVENTS[type];
  return !permission || can(role, permission);
};

const ACCESS: Access = { permission: 'view_dashboard' };

interface StreamOptions {
  db: Db;
  heartbeatMs?: number;
  stallMs?: number;
  checkTimeoutMs?: number;
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
    // Live by nature: a past edition has no stream (its board is read with ?edition=).
    config: { access: ACCESS, pastEditions: false },
    schema: {
      tags: ['course'],
      description:
        'Server-Sent Events: `scan`, `incident` and `course` events whose JSON data names the rider (riderId, riderNumber, kitName); `position` events (a tracked rider’s last position: userId, riderNumber, state, last, alongM) only to holders of handle_incidents; `receipt` events (a receipt processed or read: userId, fileId) only to holders of verify_users; `live` with `{ live }` when the feed drops or returns, or after events were dropped because the client read too slowly (re-read on `live: true`); a comment line every ~20 s. A stream that can take nothing more for 30 s (its client not reading) is closed.',
      produces: ['text/event-stream'],
    },
    handler: (request, reply) => {
      const { userId, role } = requireAuth(request);
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
      stream(app, request, reply, {
        open,
        release,
        role,
        db: opts.db,
        heartbeatMs: opts.heartbeatMs ?? HEARTBEAT_MS,
        stallMs: opts.stallMs ?? STALL_MS,
        checkTimeoutMs: opts.checkTimeoutMs ?? CHECK_TIMEOUT_MS,
      });
    },
  });
}

function stream(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  ctx: {
    open: Set<() => void>;
    release: () => void;
    /** The account's role as looked up when the stream opened. */
    role: Role;
    db: Db;
    heartbeatMs: number;
    stallMs: number;
    checkTimeoutMs: number;
  },
) {
  // The token the access hook accepted, read as it read it.
  const token = bearerToken(request);
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

  let ended = false;
  // Backpressure: a client that reads slower than events come (or not at all) must not make
  // the server hold more and more for it. Frames are written a batch at a time (those that
  // came during one session lookup, at most MAX_BATCH_BYTES); when the socket's buffer is over
  // its mark after a batch (write() returned false), nothing more is written until 'drain'.
  // Events meanwhile are dropped, and once writing resumes one `live` frame (the feed's state
  // now) stands for them: the console re-reads everything on live:true, as after a reconnection
  // (apps/web/src/lib/event-stream.ts). What a stream holds is so bounded by the high-water
  // mark and one batch, however many events come. The batch, not the frame, is the unit
  // because Node corks a response's socket until the next tick on its first write: a burst
  // written at once always reports a full buffer, even to a client that reads everything at
  // once (what tripped the earlier cut on writableLength). A stream that stays undrained for
  // `stallMs` is closed; its client reconnects when it reads again.
  let congested = false;
  let missed = false;
  let stall: NodeJS.Timeout | null = null;
  const send = (frames: Frame[]) => {
    if (ended) return;
    if (congested) {
      if (frames.some((f) => f.isEvent)) missed = true;
      return;
    }
    let ok = true;
    for (const f of frames) ok = res.write(f.frame) && ok;
    // One frame stands for the events dropped before (while the buffer was full, or past
    // MAX_BATCH_BYTES): the client re-reads what it shows.
    if (missed) {
      missed = false;
      ok = res.write(sseFrame('live', { live: app.eventBus.isLive })) && ok;
    }
    if (ok) return;
    congested = true;
    stall = setTimeout(() => end(), ctx.stallMs);
    stall.unref();
    res.once('drain', drained);
  };
  const drained = () => {
    if (ended) return;
    congested = false;
    if (stall) clearTimeout(stall);
    stall = null;
    if (missed) send([]);
  };

  // A first line at once: clients (and proxies) see the stream is open; `retry` paces reconnects.
  send([{ frame: `retry: 3000\n: connected\n\n${sseFrame('live', { live: app.eventBus.isLive })}`, isEvent: true }]);

  // Frames wait here while the session is looked up again; one lookup serves a burst. Past
  // MAX_BATCH_BYTES (a huge burst, a slow lookup) events are dropped and caught up on as above.
  let waiting: Frame[] = [];
  let waitingBytes = 0;
  let checking = false;
  // Which restricted events go out on this stream: the account's role as last looked up.
  let role = ctx.role;
  // 'unknown' when the database could not say (an error, or no answer in CHECK_TIMEOUT_MS).
  const stillAllowed = (): Promise<'yes' | 'no' | 'unknown'> =>
    new Promise((resolve) => {
      const timer = setTimeout(() => resolve('unknown'), ctx.checkTimeoutMs);
      timer.unref();
      checkAccess(ctx.db, token, ACCESS).then(
        (verdict) => {
          clearTimeout(timer);
          if (verdict.ok && verdict.auth) role = verdict.auth.role;
          resolve(verdict.ok ? 'yes' : 'no');
        },
        () => {
          clearTimeout(timer);
          resolve('unknown');
        },
      );
    });
  // Who looked (DESIGN.md §12): a rider's position sent on this stream is a staff read of it.
  // One line per rider per stream, at the first position it carries: a line per event would
  // be thousands an hour for one console left open, and say nothing more.
  const staff = request.auth ? actorOf(request.auth) : null;
  const logged = new Set<string>();
  const logPositions = (frames: Frame[]) => {
    const riders = new Map<string, Set<SensitiveKind>>();
    for (const f of frames)
      if (f.riderId && !logged.has(f.riderId)) {
        logged.add(f.riderId);
        riders.set(f.riderId, new Set(['position']));
      }
    if (riders.size === 0 || !staff) return;
    recordAccess(ctx.db, { staffId: staff.id, staffName: staff.name, ip: request.ip }, 'live board stream', {
      byRider: riders,
      unnamed: new Set(),
    }).catch((error) => request.log.error({ err: error }, 'the access log could not be written'));
  };
  const deliver = (frame: string | null, isEvent = true, type?: EventTypeName, riderId?: string) => {
    if (ended) return;
    if (frame !== null) {
      const bytes = Buffer.byteLength(frame);
      if (congested || waitingBytes + bytes > MAX_BATCH_BYTES) {
        if (isEvent) missed = true;
      } else {
        waiting.push({ frame, isEvent, type, riderId });
        waitingBytes += bytes;
      }
    }
    if (checking) return;
    checking = true;
    void stillAllowed().then((allowed) => {
      checking = false;
      if (allowed === 'no') return end();
      // Restricted events only for an account that (still) holds their permission.
      const frames = waiting.filter((f) => mayRead(role, f.type));
      waiting = [];
      waitingBytes = 0;
      send(frames);
      logPositions(frames);
      // Events that came during the lookup get their own.
      if (waiting.length > 0) deliver(null);
    });
  };

  const typeOf = (event: DeliveredEvent) => (event.type === 'live' ? undefined : event.type);
  // A stream that may not read an event skips it outright (no session lookup for it): a
  // valley's buffer flush is no reason to query the database once per open console.
  const unsubscribe = app.eventBus.subscribe((event) => {
    const type = typeOf(event);
    if (!mayRead(role, type)) return;
    const named = event.type === 'position' ? event.data.userId : undefined;
    const riderId = typeof named === 'string' ? named : undefined;
    deliver(event.frame, true, type, riderId);
  });
  // Written at once, whatever the database does (a lookup that hangs must not silence the
  // stream); then the session is checked, even while the stream is congested: a stalled
  // stream of an ended session ends at the next heartbeat.
  const heartbeat = setInterval(() => {
    send([{ frame: ': heartbeat\n\n', isEvent: false }]);
    deliver(null);
  }, ctx.heartbeatMs);
  heartbeat.unref();

  const end = () => {
    if (ended) return;
    ended = true;
    clearInterval(heartbeat);
    if (stall) clearTimeout(stall);
    unsubscribe();
    ctx.open.delete(end);
    ctx.release();
    waiting = [];
    // A congested stream is cut (its buffer would wait for a reader that does not read);
    // any other ends once what it holds is sent.
    if (congested) res.destroy();
    else if (!res.writableEnded) res.end();
  };
  ctx.open.add(end);
  // The response closes when the client goes away (or the server ends it).
  res.on('close', end);
  res.on('error', end);
}
