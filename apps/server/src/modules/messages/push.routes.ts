// Web Push for an account (DESIGN.md §10): the server's VAPID public key the browser
// subscribes with, the account's browsers, and what the account wants to hear by.
import { messageEnvelope } from '@rally/shared/contracts/common';
import {
  notificationSettingsResponse,
  pushPublicKeyResponse,
  pushSubscriptionBody,
  pushUnsubscribeRequest,
  updateNotificationSettingsRequest,
} from '@rally/shared/contracts/messages';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { requireAuth } from '../../lib/authorize';
import { responses } from '../../lib/route-helpers';
import { notificationSettingsView, updateNotificationSettings } from './notification-settings.service';
import { subscribePush, unsubscribePush } from './push.service';

export async function pushRoutes(app: FastifyInstance, opts: { db: Db; config: Config }) {
  const { db, config } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/push/public-key', {
    config: { access: 'public' },
    schema: {
      tags: ['messages'],
      description:
        "The server's VAPID public key (base64url), the `applicationServerKey` a browser subscribes to push with.",
      response: responses({ 200: pushPublicKeyResponse }),
    },
    handler: async () => ({ success: true as const, data: { publicKey: app.messenger.vapid.publicKey } }),
  });

  r.post('/my/push-subscriptions', {
    config: { access: 'authenticated' },
    schema: {
      tags: ['messages'],
      description:
        "Adds this browser (its `PushSubscription.toJSON()`) to the caller's push devices, for as long as this sign-in lasts: signing out (POST /api/auth/logout) removes it, and a device whose sign-in has ended gets nothing meant for the account. The same browser again (the same `keys.auth`) moves it to the caller; the endpoint with other keys is refused with 409 `PUSH_ENDPOINT_TAKEN` and the stored one stays its owner's. Endpoints outside the known push services and PUSH_ENDPOINT_HOSTS are refused with 400.",
      body: pushSubscriptionBody,
      response: responses({ 201: messageEnvelope }, 409),
    },
    handler: async (request, reply) => {
      await subscribePush(db, requireAuth(request), request.body, config.messages.pushEndpointHosts);
      reply.code(201);
      return { success: true as const, message: 'Push is on for this browser' };
    },
  });

  r.delete('/my/push-subscriptions', {
    config: { access: 'authenticated' },
    schema: {
      tags: ['messages'],
      description: "Removes the caller's own subscription at `endpoint` (nothing else); 200 even when there was none.",
      body: pushUnsubscribeRequest,
      response: responses({ 200: messageEnvelope }),
    },
    handler: async (request) => {
      const removed = await unsubscribePush(db, requireAuth(request).userId, request.body.endpoint);
      return {
        success: true as const,
        message: removed ? 'Push is off for this browser' : 'This browser had no push subscription',
      };
    },
  });

  r.get('/my/notification-settings', {
    config: { access: 'authenticated' },
    schema: {
      tags: ['messages'],
      description:
        'What the caller hears by (email, push, SMS; on call for holders of handle_incidents), and how many of their browsers get push.',
      response: responses({ 200: notificationSettingsResponse }),
    },
    handler: async (request) => {
      const auth = requireAuth(request);
      return { success: true as const, data: await notificationSettingsView(db, auth.userId, auth.role) };
    },
  });

  r.patch('/my/notification-settings', {
    config: { access: 'authenticated' },
    schema: {
      tags: ['messages'],
      description:
        'Changes any of `email`, `push`, `sms`, `onCall`; the rest stay. Going on call needs handle_incidents (else 403).',
      body: updateNotificationSettingsRequest,
      response: responses({ 200: notificationSettingsResponse }, 403),
    },
    handler: async (request) => {
      const auth = requireAuth(request);
      const data = await updateNotificationSettings(db, auth.userId, auth.role, request.body);
      return { success: true as const, message: 'Notification settings saved', data };
    },
  });
}
