// Followers (DESIGN.md §10): anyone with a rider's page follows them by email (confirmed by
// the email's link first) or by this browser's push; the rider sees and removes followers.
import { messageEnvelope, uuidParam } from '@rally/shared/contracts/common';
import {
  FOLLOW_EMAIL_SENT_MESSAGE,
  FOLLOW_PUSH_MESSAGE,
  followAnswer,
  followersResponse,
  followRequest,
  followRiderParam,
  followTokenRequest,
} from '@rally/shared/contracts/messages';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { requireAuth } from '../../lib/authorize';
import { responses } from '../../lib/route-helpers';
import { presentFollower } from './followers.presenter';
import { confirmFollow, followRider, listFollowers, removeFollower } from './followers.service';

export async function followersRoutes(app: FastifyInstance, opts: { db: Db; config: Config }) {
  const { db, config } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();
  const limits = config.rateLimits;

  // Registered before `/follow/:userId` reads better; the router prefers the static path anyway.
  r.post('/follow/confirm', {
    config: { access: 'public' },
    schema: {
      tags: ['messages'],
      description:
        "Confirms an email follower with the token of the confirmation email's link. Confirming again is fine (200); a token that is unknown or was replaced by a newer email's is a 400.",
      body: followTokenRequest,
      response: responses({ 200: followAnswer }),
    },
    handler: async (request) => ({
      success: true as const,
      message: 'Following confirmed',
      data: await confirmFollow(db, request.body.token, app.clock.now()),
    }),
  });

  r.post('/follow/:userId', {
    config: {
      access: 'public',
      // It sends email to an address anyone can type: the same ceiling as resets, per address.
      rateLimit: limits.enabled ? { max: limits.resetsPerAddressPerHour, timeWindow: 3_600_000 } : false,
    },
    schema: {
      tags: ['messages'],
      description:
        "Follows a verified rider: `{ email }` gets one confirmation email and nothing else until its link is confirmed (a repeat re-sends at most every 10 minutes, and the answer is the same whether or not the address already follows); `{ pushSubscription }` (this browser's `PushSubscription.toJSON()`) follows at once. 404 when the id names no verified rider; 400 when the channel is not set up or the push endpoint is refused; 409 `FOLLOWERS_OFF` when the rider withdrew the followers consent; 409 `PUSH_ENDPOINT_TAKEN` when the endpoint is stored already with other keys (only the browser holding it, by its `keys.auth`, can use it).",
      params: followRiderParam,
      body: followRequest,
      response: responses({ 202: messageEnvelope }, 404, 409),
    },
    handler: async (request, reply) => {
      const channel = await followRider(db, request.params.userId, request.body, {
        messenger: app.messenger,
        pushEndpointHosts: config.messages.pushEndpointHosts,
        now: app.clock.now(),
      });
      reply.code(202);
      return {
        success: true as const,
        message: channel === 'email' ? FOLLOW_EMAIL_SENT_MESSAGE : FOLLOW_PUSH_MESSAGE,
      };
    },
  });

  r.get('/my/followers', {
    config: { access: 'authenticated' },
    schema: {
      tags: ['messages'],
      description:
        "The caller's followers, newest first: the channel, the email masked or the browser's push service, and whether the email is confirmed.",
      response: responses({ 200: followersResponse }),
    },
    handler: async (request) => {
      const rows = await listFollowers(db, requireAuth(request).userId);
      return { success: true as const, data: rows.map(presentFollower) };
    },
  });

  r.delete('/my/followers/:id', {
    config: { access: 'authenticated' },
    schema: {
      tags: ['messages'],
      description: "Removes one of the caller's own followers (404 for any other id).",
      params: uuidParam,
      response: responses({ 200: messageEnvelope }, 404),
    },
    handler: async (request) => {
      await removeFollower(db, requireAuth(request).userId, request.params.id);
      return { success: true as const, message: 'Follower removed' };
    },
  });
}
