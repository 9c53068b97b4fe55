import { messageEnvelope } from '@rally/shared/contracts/common';
import {
  createStationRequest,
  reorderStationsRequest,
  stationListResponse,
  stationResponse,
  updateStationRequest,
} from '@rally/shared/contracts/stations';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { actorOf } from '../../lib/actor';
import { requireAuth } from '../../lib/authorize';
import { responses } from '../../lib/route-helpers';
import { presentStation } from './stations.presenter';
import {
  createStation,
  deleteStation,
  listStations,
  reorderStations,
  seedDefaultStations,
  updateStation,
} from './stations.service';

const manage = { permission: 'manage_event' } as const;
const idParam = z.object({ id: z.uuid({ message: 'id must be a station id' }) });

export async function stationRoutes(app: FastifyInstance, opts: { db: Db }) {
  const { db } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();

  // Scanners pick their station from it; the Event Day tab shows it.
  r.get('/admin/stations', {
    config: { access: { anyPermission: ['qr_scan', 'view_dashboard'] } },
    schema: { tags: ['stations'], response: responses({ 200: stationListResponse }) },
    handler: async (request) => ({
      success: true as const,
      data: (await listStations(db, request.edition)).map(presentStation),
    }),
  });

  r.post('/admin/stations', {
    config: { access: manage },
    schema: { tags: ['stations'], body: createStationRequest, response: responses({ 201: stationResponse }, 409) },
    handler: async (request, reply) => {
      const row = await createStation(db, request.body, actorOf(requireAuth(request)));
      return reply.code(201).send({ success: true as const, data: presentStation(row), message: 'Station created' });
    },
  });

  r.post('/admin/stations/seed-defaults', {
    config: { access: manage },
    schema: {
      tags: ['stations'],
      description: 'Creates the default stations from the route catalog; only while no station exists.',
      response: responses({ 201: stationListResponse }, 409),
    },
    handler: async (request, reply) => {
      const rows = await seedDefaultStations(db, actorOf(requireAuth(request)));
      return reply
        .code(201)
        .send({ success: true as const, data: rows.map(presentStation), message: 'Default stations created' });
    },
  });

  r.post('/admin/stations/reorder', {
    config: { access: manage },
    schema: { tags: ['stations'], body: reorderStationsRequest, response: responses({ 200: stationListResponse }) },
    handler: async (request) => {
      const rows = await reorderStations(db, request.body.day, request.body.ids, actorOf(requireAuth(request)));
      return { success: true as const, data: rows.map(presentStation), message: 'Stations reordered' };
    },
  });

  r.patch('/admin/stations/:id', {
    config: { access: manage },
    schema: {
      tags: ['stations'],
      params: idParam,
      body: updateStationRequest,
      response: responses({ 200: stationResponse }, 409),
    },
    handler: async (request) => {
      const row = await updateStation(db, request.params.id, request.body, actorOf(requireAuth(request)));
      return { success: true as const, data: presentStation(row), message: 'Station updated' };
    },
  });

  r.delete('/admin/stations/:id', {
    config: { access: manage },
    schema: { tags: ['stations'], params: idParam, response: responses({ 200: messageEnvelope }, 409) },
    handler: async (request) => {
      await deleteStation(db, request.params.id, actorOf(requireAuth(request)));
      return { success: true as const, message: 'Station deleted' };
    },
  });
}
