import { eventSettingsResponse, updateEventSettingsRequest } from '@rally/shared/contracts/settings';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client';
import { actorOf } from '../../lib/actor';
import { requireAuth } from '../../lib/authorize';
import { responses } from '../../lib/route-helpers';
import { readEventSettings, updateEventSettings } from './settings.service';

export async function settingsRoutes(app: FastifyInstance, opts: { db: Db }) {
  const { db } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();

  // Public: the hotline is printed on riders' cards and meant to be called; the name and
  // dates are on the landing page anyway. A rider's phone caches it for the SOS fallback.
  r.get('/settings/event', {
    config: { access: 'public' },
    schema: { tags: ['settings'], response: responses({ 200: eventSettingsResponse }) },
    handler: async () => ({ success: true as const, data: await readEventSettings(db) }),
  });

  r.put('/admin/settings/event', {
    config: { access: { permission: 'manage_event' } },
    schema: {
      tags: ['settings'],
      body: updateEventSettingsRequest,
      response: responses({ 200: eventSettingsResponse }),
    },
    handler: async (request) => {
      const data = await updateEventSettings(db, request.body, actorOf(requireAuth(request)));
      return { success: true as const, data, message: 'Event settings saved' };
    },
  });
}
