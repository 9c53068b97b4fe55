// Data retention per edition (DESIGN.md §12): the organiser reads and sets how long each kind
// of personal data is kept after the edition ends, and sees what the daily job removed.
import { uuidParam } from '@rally/shared/contracts/common';
import { retentionResponse, updateRetentionRequest } from '@rally/shared/contracts/retention';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Db } from '../../db/client';
import { actorOf } from '../../lib/actor';
import { requireAuth } from '../../lib/authorize';
import { responses } from '../../lib/route-helpers';
import { presentRetention } from './retention.presenter';
import { readRetention, updateRetention } from './retention.service';

const manage = { permission: 'manage_event' } as const;

export async function retentionRoutes(app: FastifyInstance, opts: { db: Db }) {
  const { db } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/admin/editions/:id/retention', {
    config: { access: manage },
    schema: {
      tags: ['privacy'],
      description:
        'How long the edition keeps each kind of personal data after its last day (its own days or the default), when each goes (null without an end date), and when the daily job removed it, with how many records.',
      params: uuidParam,
      response: responses({ 200: retentionResponse }, 404),
    },
    handler: async (request) => {
      const { edition, sweeps } = await readRetention(db, request.params.id);
      return { success: true as const, data: { retention: presentRetention(edition, sweeps, new Date()) } };
    },
  });

  r.put('/admin/editions/:id/retention', {
    config: { access: manage },
    schema: {
      tags: ['privacy'],
      description:
        'Sets the days (0–3650) each kind is kept after the edition’s last day; a kind left out or null keeps the default. A kind already removed stays removed.',
      params: uuidParam,
      body: updateRetentionRequest,
      response: responses({ 200: retentionResponse }, 404),
    },
    handler: async (request) => {
      const { edition, sweeps } = await updateRetention(
        db,
        request.params.id,
        request.body,
        actorOf(requireAuth(request)),
      );
      return {
        success: true as const,
        data: { retention: presentRetention(edition, sweeps, new Date()) },
        message: `${edition.name}: retention saved`,
      };
    },
  });
}
