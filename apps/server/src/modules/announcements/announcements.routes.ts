import { announcementsResponse } from '@rally/shared/contracts/rider-kit';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client';
import { responses } from '../../lib/route-helpers';
import { activeAnnouncements } from './announcements.service';

export async function announcementRoutes(app: FastifyInstance, opts: { db: Db }) {
  const { db } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/announcements', {
    config: { access: 'authenticated' },
    schema: {
      tags: ['announcements'],
      description: 'Active announcements for riders, newest first.',
      response: responses({ 200: announcementsResponse }),
    },
    handler: async () => ({ success: true as const, data: { announcements: await activeAnnouncements(db) } }),
  });
}
