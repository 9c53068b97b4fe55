import {
  adminAnnouncementListResponse,
  adminAnnouncementResponse,
  announcementBody,
  announcementListQuery,
} from '@rally/shared/contracts/announcements';
import { makePagination, messageEnvelope, uuidParam } from '@rally/shared/contracts/common';
import { announcementsResponse } from '@rally/shared/contracts/rider-kit';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client';
import { actorOf } from '../../lib/actor';
import { requireAuth } from '../../lib/authorize';
import { responses } from '../../lib/route-helpers';
import { presentAdminAnnouncement, presentAnnouncement } from './announcements.presenter';
import {
  activeAnnouncements,
  createAnnouncement,
  deleteAnnouncement,
  listAnnouncements,
  updateAnnouncement,
} from './announcements.service';

const access = { permission: 'manage_announcements' } as const;

/** Riders read the active announcements; staff holding manage_announcements write them. */
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
    handler: async () => ({
      success: true as const,
      data: { announcements: (await activeAnnouncements(db)).map(presentAnnouncement) },
    }),
  });

  r.get('/admin/announcements', {
    config: { access },
    schema: {
      tags: ['announcements'],
      querystring: announcementListQuery,
      response: responses({ 200: adminAnnouncementListResponse }),
    },
    handler: async (request) => {
      const { page, limit } = request.query;
      const { rows, total } = await listAnnouncements(db, page, limit);
      return {
        success: true as const,
        data: { announcements: rows.map(presentAdminAnnouncement), pagination: makePagination(page, limit, total) },
      };
    },
  });

  r.post('/admin/announcements', {
    config: { access },
    schema: {
      tags: ['announcements'],
      body: announcementBody,
      response: responses({ 201: adminAnnouncementResponse }),
    },
    handler: async (request, reply) => {
      const row = await createAnnouncement(db, request.body, actorOf(requireAuth(request)));
      reply.code(201);
      return { success: true as const, data: presentAdminAnnouncement(row), message: 'Announcement created' };
    },
  });

  r.put('/admin/announcements/:id', {
    config: { access },
    schema: {
      tags: ['announcements'],
      params: uuidParam,
      body: announcementBody,
      response: responses({ 200: adminAnnouncementResponse }),
    },
    handler: async (request) => {
      const row = await updateAnnouncement(db, request.params.id, request.body, actorOf(requireAuth(request)));
      return { success: true as const, data: presentAdminAnnouncement(row), message: 'Announcement updated' };
    },
  });

  r.delete('/admin/announcements/:id', {
    config: { access },
    schema: { tags: ['announcements'], params: uuidParam, response: responses({ 200: messageEnvelope }) },
    handler: async (request) => {
      await deleteAnnouncement(db, request.params.id, actorOf(requireAuth(request)));
      return { success: true as const, message: 'Announcement deleted' };
    },
  });
}
