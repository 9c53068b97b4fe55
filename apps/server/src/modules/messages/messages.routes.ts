// The delivery log, the channels' state and the test message (the console's Settings tab),
// and the one-click unsubscribe link every non-safety email carries (RFC 8058).
import { parse as parseQuery } from 'node:querystring';
import { MESSAGE_CHANNEL_LABELS } from '@rally/shared/catalog/messages';
import {
  channelsResponse,
  deliveryLogResponse,
  messageListQuery,
  resendResponse,
  testMessageRequest,
  testMessageResponse,
} from '@rally/shared/contracts/messages';
import { can } from '@rally/shared/permissions';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { actorOf } from '../../lib/actor';
import { requireAuth } from '../../lib/authorize';
import { responses } from '../../lib/route-helpers';
import { presentChannelState, presentDelivery } from './messages.presenter';
import { channelStates, listDeliveries, resendMessage, sendTestMessage } from './messages.service';
import {
  readUnsubscribeToken,
  UNSUBSCRIBE_PAGE_CSP,
  unsubscribe,
  unsubscribeConfirmPage,
  unsubscribedPage,
} from './unsubscribe';

const unsubscribeQuery = z.object({
  token: z
    .string({ message: 'token is missing: open the link from the email again' })
    .trim()
    .min(1, { message: 'token is missing: open the link from the email again' })
    .max(300, { message: 'token is invalid' }),
});

/** RFC 8058's body (`List-Unsubscribe=One-Click`); a body-less POST is taken too. */
const oneClickBody = z
  .object({ 'List-Unsubscribe': z.union([z.string().max(64), z.array(z.string().max(64))]).optional() })
  .nullish();

export async function messagesRoutes(app: FastifyInstance, opts: { db: Db; config: Config }) {
  const { db } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();

  // Mail providers post the one-click form as a form; only this plugin's routes read one.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 4096 },
    (_req, body, done) => done(null, parseQuery(body.toString())),
  );

  r.get('/admin/messages', {
    config: { access: { permission: 'view_dashboard' } },
    schema: {
      tags: ['messages'],
      description:
        'The delivery log: every message of the outbox, newest first. Recipients are masked for roles without view_users.',
      querystring: messageListQuery,
      response: responses({ 200: deliveryLogResponse }),
    },
    handler: async (request) => {
      const auth = requireAuth(request);
      const { rows, pagination } = await listDeliveries(db, auth, request.query);
      const full = can(auth.role, 'view_users');
      return {
        success: true as const,
        data: { messages: rows.map((row) => presentDelivery(row, full)), pagination },
      };
    },
  });

  r.get('/admin/messages/channels', {
    config: { access: { permission: 'view_dashboard' } },
    schema: {
      tags: ['messages'],
      description: 'Each channel, on or off, where it sends, and its last failure within the hour.',
      response: responses({ 200: channelsResponse }),
    },
    handler: async (request) => {
      const full = can(requireAuth(request).role, 'view_users');
      const states = await channelStates(db, app.messenger.channels, app.clock.now());
      return { success: true as const, data: { channels: states.map((state) => presentChannelState(state, full)) } };
    },
  });

  r.post('/admin/messages/test', {
    config: { access: { permission: 'manage_event' } },
    schema: {
      tags: ['messages'],
      description:
        "Sends a test message to the caller's own address on the channel (email, phone, or each of their browsers with push).",
      body: testMessageRequest,
      response: responses({ 202: testMessageResponse }),
    },
    handler: async (request, reply) => {
      const auth = requireAuth(request);
      const { channel } = request.body;
      const ids = await sendTestMessage(
        db,
        app.messenger.channels,
        { userId: auth.userId, name: actorOf(auth).name },
        channel,
      );
      reply.code(202);
      return {
        success: true as const,
        message: `${MESSAGE_CHANNEL_LABELS[channel]} test queued: ${ids.length} message${ids.length === 1 ? '' : 's'}`,
        data: { ids },
      };
    },
  });

  r.post('/admin/messages/:id/resend', {
    config: { access: { permission: 'manage_event' } },
    schema: {
      tags: ['messages'],
      description:
        'Queues a failed message again: its tries start over and it goes out at once. 409 for a message that is queued or sent, or a push whose browser is gone.',
      params: z.object({ id: z.uuid({ message: 'id must be a message id' }) }),
      response: responses({ 200: resendResponse }, 409),
    },
    handler: async (request) => {
      const auth = requireAuth(request);
      const row = await resendMessage(db, auth, request.params.id, app.clock.now());
      return {
        success: true as const,
        message: 'Queued again: it goes out now',
        data: presentDelivery(row, can(auth.role, 'view_users')),
      };
    },
  });

  // Mail clients open the link with GET (and scanners prefetch it): it only asks.
  r.get('/unsubscribe', {
    config: { access: 'public' },
    schema: {
      tags: ['messages'],
      description: "The page of an email's unsubscribe link: asks to confirm (a POST); changes nothing.",
      querystring: unsubscribeQuery,
      produces: ['text/html'],
    },
    handler: async (request, reply) => {
      const subject = readUnsubscribeToken(app.messenger.unsubscribeKey, request.query.token);
      return reply
        .header('content-security-policy', UNSUBSCRIBE_PAGE_CSP)
        .header('cache-control', 'no-store')
        .type('text/html; charset=utf-8')
        .send(unsubscribeConfirmPage(subject, request.query.token));
    },
  });

  r.post('/unsubscribe', {
    config: { access: 'public' },
    schema: {
      tags: ['messages'],
      description:
        'One-click unsubscribe (RFC 8058): email off for the account, or the follower removed. Body `List-Unsubscribe=One-Click`, or none.',
      querystring: unsubscribeQuery,
      body: oneClickBody,
      consumes: ['application/x-www-form-urlencoded'],
      produces: ['text/html'],
    },
    handler: async (request, reply) => {
      const subject = readUnsubscribeToken(app.messenger.unsubscribeKey, request.query.token);
      await unsubscribe(db, subject);
      return reply
        .header('content-security-policy', UNSUBSCRIBE_PAGE_CSP)
        .header('cache-control', 'no-store')
        .type('text/html; charset=utf-8')
        .send(unsubscribedPage(subject));
    },
  });
}
