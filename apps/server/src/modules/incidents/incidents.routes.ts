import {
  assigneeListResponse,
  assignIncidentRequest,
  createIncidentRequest,
  incidentListQuery,
  incidentListResponse,
  incidentResponse,
  myIncidentListResponse,
  resolveIncidentRequest,
  sosRequest,
  sosResponse,
} from '@rally/shared/contracts/incidents';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Db } from '../../db/client';
import { actorOf } from '../../lib/actor';
import { requireAuth } from '../../lib/authorize';
import { responses } from '../../lib/route-helpers';
import { fullName } from '../../lib/sql-text';
import { presentIncident, presentMyIncident } from './incidents.presenter';
import {
  changeIncident,
  createIncidentForRider,
  listAssignees,
  listIncidents,
  myIncidents,
  sendSos,
} from './incidents.service';

const idParam = z.object({ id: z.uuid({ message: 'id must be an incident id' }) });
const handle = { permission: 'handle_incidents' } as const;

export async function incidentRoutes(app: FastifyInstance, opts: { db: Db }) {
  const { db } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();

  // Any signed-in account may call for help: a rider whose payment is still pending is no
  // less in trouble, and refusing an SOS helps nobody.
  r.post('/my/sos', {
    config: { access: 'authenticated' },
    schema: {
      tags: ['incidents'],
      description:
        'Sends an SOS with an id made on the device: 201 opens an incident; the same id again answers 200 with the same incident.',
      body: sosRequest,
      response: responses({ 200: sosResponse, 201: sosResponse }, 409),
    },
    handler: async (request, reply) => {
      const { incident, created } = await sendSos(db, requireAuth(request), request.body);
      return reply.code(created ? 201 : 200).send({
        success: true as const,
        data: { incident },
        message: created ? 'SOS received. Help is on the way.' : 'SOS already received',
      });
    },
  });

  r.get('/my/incidents', {
    config: { access: 'authenticated' },
    schema: { tags: ['incidents'], response: responses({ 200: myIncidentListResponse }) },
    handler: async (request) => {
      const rows = await myIncidents(db, requireAuth(request).userId);
      return { success: true as const, data: rows.map(presentMyIncident) };
    },
  });

  r.get('/admin/incidents', {
    config: { access: { permission: 'view_dashboard' } },
    schema: { tags: ['incidents'], querystring: incidentListQuery, response: responses({ 200: incidentListResponse }) },
    handler: async (request) => {
      const auth = requireAuth(request);
      const rows = await listIncidents(db, auth.role, request.query.status);
      return { success: true as const, data: rows.map((row) => presentIncident(row, auth.role)) };
    },
  });

  r.post('/admin/incidents', {
    config: { access: handle },
    schema: {
      tags: ['incidents'],
      description: 'Opens an incident for a rider who phoned in; it starts acknowledged by the caller.',
      body: createIncidentRequest,
      response: responses({ 201: incidentResponse }, 404, 409),
    },
    handler: async (request, reply) => {
      const auth = requireAuth(request);
      const row = await createIncidentForRider(db, auth.role, actorOf(auth), request.body);
      return reply
        .code(201)
        .send({ success: true as const, data: presentIncident(row, auth.role), message: 'Incident opened' });
    },
  });

  r.get('/admin/incidents/assignees', {
    config: { access: handle },
    schema: { tags: ['incidents'], response: responses({ 200: assigneeListResponse }) },
    handler: async (request) => {
      const rows = await listAssignees(db, requireAuth(request).role);
      return {
        success: true as const,
        data: rows.map((u) => ({ id: u.id, name: fullName(u.firstName, u.lastName), role: u.role })),
      };
    },
  });

  r.post('/admin/incidents/:id/acknowledge', {
    config: { access: handle },
    schema: { tags: ['incidents'], params: idParam, response: responses({ 200: incidentResponse }, 409) },
    handler: async (request) => {
      const auth = requireAuth(request);
      const row = await changeIncident(db, request.params.id, auth.role, actorOf(auth), { action: 'acknowledge' });
      return { success: true as const, data: presentIncident(row, auth.role), message: 'Incident acknowledged' };
    },
  });

  r.post('/admin/incidents/:id/assign', {
    config: { access: handle },
    schema: {
      tags: ['incidents'],
      params: idParam,
      body: assignIncidentRequest,
      response: responses({ 200: incidentResponse }, 409),
    },
    handler: async (request) => {
      const auth = requireAuth(request);
      const row = await changeIncident(db, request.params.id, auth.role, actorOf(auth), {
        action: 'assign',
        userId: request.body.userId,
      });
      return { success: true as const, data: presentIncident(row, auth.role), message: 'Incident assigned' };
    },
  });

  r.post('/admin/incidents/:id/resolve', {
    config: { access: handle },
    schema: {
      tags: ['incidents'],
      params: idParam,
      body: resolveIncidentRequest,
      response: responses({ 200: incidentResponse }, 409),
    },
    handler: async (request) => {
      const auth = requireAuth(request);
      const row = await changeIncident(db, request.params.id, auth.role, actorOf(auth), {
        action: 'resolve',
        note: request.body.note,
      });
      return { success: true as const, data: presentIncident(row, auth.role), message: 'Incident resolved' };
    },
  });
}
