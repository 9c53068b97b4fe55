import { messageEnvelope } from '@rally/shared/contracts/common';
import {
  abuseMarkListResponse,
  assigneeListResponse,
  assignIncidentRequest,
  createIncidentRequest,
  incidentListQuery,
  incidentListResponse,
  incidentResponse,
  markAbuseRequest,
  myIncidentListResponse,
  resolveIncidentRequest,
  SOS_CALLS_PER_HOUR,
  SOS_MUTED_MESSAGE,
  SOS_NEW_INCIDENTS_PER_HOUR,
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
  getIncident,
  liftAbuseMark,
  listAbuseMarks,
  listAssignees,
  listIncidents,
  markAbuse,
  myIncidents,
  sendSos,
} from './incidents.service';

const idParam = z.object({ id: z.uuid({ message: 'id must be an incident id' }) });
const userIdParam = z.object({ userId: z.uuid({ message: 'userId must be an account id' }) });
const handle = { permission: 'handle_incidents' } as const;

export async function incidentRoutes(app: FastifyInstance, opts: { db: Db }) {
  const { db } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();

  // Any signed-in account may call for help: a rider whose payment is still pending is no
  // less in trouble, and refusing an SOS helps nobody. What bounds a flood is the service:
  // one unresolved incident per rider, and hourly caps per account counted in the database.
  r.post('/my/sos', {
    config: { access: 'authenticated' },
    schema: {
      tags: ['incidents'],
      description:
        'Sends an SOS with an id made on the device: 201 opens an incident; the same id again answers 200 with the same incident. ' +
        'While the rider has an unresolved incident, a new id joins it: 200 with that incident and `joined: true`. ' +
        `An account may send ${SOS_CALLS_PER_HOUR} calls and open ${SOS_NEW_INCIDENTS_PER_HOUR} incidents an hour; past that, 429 (SOS_LIMIT) names the event hotline and the phone keeps the call to send later.`,
      body: sosRequest,
      response: responses({ 200: sosResponse, 201: sosResponse }, 409),
    },
    handler: async (request, reply) => {
      const { incident: row, created, joined } = await sendSos(db, requireAuth(request), request.body, app.messenger);
      // An account staff marked as abuse is told that nobody was alerted, never "help is on the way".
      const incident = { id: row.id, status: row.status, ...(row.muted ? { muted: true as const } : {}) };
      return reply.code(created ? 201 : 200).send({
        success: true as const,
        data: joined ? { incident, joined } : { incident },
        message: row.muted
          ? SOS_MUTED_MESSAGE
          : created
            ? 'SOS received. Help is on the way.'
            : joined
              ? 'SOS added to your open call'
              : 'SOS already received',
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
    schema: {
      tags: ['incidents'],
      description:
        'Every unresolved incident (open first, the longest waiting first), never cut; then resolved ones newest first, ' +
        '`limit` (default 100) at a time: pass `nextBefore` as `before` for older ones. `muted=true` lists instead the ' +
        'calls of accounts marked as abuse, which the default list (and so the alarm) leaves out.',
      querystring: incidentListQuery,
      response: responses({ 200: incidentListResponse }),
    },
    handler: async (request) => {
      const auth = requireAuth(request);
      const { rows, followUps, messages, nextBefore } = await listIncidents(
        db,
        auth.role,
        request.query,
        request.edition,
      );
      return {
        success: true as const,
        data: rows.map((row) => presentIncident(row, auth.role, followUps, messages)),
        nextBefore,
      };
    },
  });

  r.get('/admin/incidents/abuse-marks', {
    config: { access: { permission: 'view_dashboard' } },
    schema: {
      tags: ['incidents'],
      description: 'Accounts whose SOS calls staff marked as abuse: their calls are kept but raise no alarm.',
      response: responses({ 200: abuseMarkListResponse }),
    },
    handler: async (request) => {
      const auth = requireAuth(request);
      const rows = await listAbuseMarks(db, auth.role, request.edition);
      return {
        success: true as const,
        data: rows.map((m) => ({
          userId: m.userId,
          riderNumber: m.rider.riderNumber,
          kitName: m.rider.kitName,
          name: fullName(m.rider.firstName, m.rider.lastName),
          incidentId: m.incidentId,
          markedAt: m.markedAt.toISOString(),
          markedBy:
            m.marker?.id && m.marker.role
              ? { id: m.marker.id, name: fullName(m.marker.firstName, m.marker.lastName), role: m.marker.role }
              : null,
          note: m.note,
        })),
      };
    },
  });

  r.delete('/admin/incidents/abuse-marks/:userId', {
    config: { access: handle },
    schema: {
      tags: ['incidents'],
      description:
        "Lifts an account's abuse mark: its calls raise the alarm again, and so do those it sent while marked that are still unresolved.",
      params: userIdParam,
      response: responses({ 200: messageEnvelope }),
    },
    handler: async (request) => {
      const auth = requireAuth(request);
      const { unmuted, label } = await liftAbuseMark(db, request.params.userId, auth.role, actorOf(auth));
      return {
        success: true as const,
        message:
          unmuted > 0
            ? `Abuse mark lifted for ${label}: ${unmuted} unresolved call${unmuted === 1 ? '' : 's'} now raise the alarm`
            : `Abuse mark lifted for ${label}`,
      };
    },
  });

  // A push's or a text's link names the incident: the console opens it by itself, resolved or not.
  r.get('/admin/incidents/:id', {
    config: { access: { permission: 'view_dashboard' } },
    schema: {
      tags: ['incidents'],
      description: 'One incident as the board shows it, with its messages; resolved ones and calls kept apart too.',
      params: idParam,
      response: responses({ 200: incidentResponse }),
    },
    handler: async (request) => {
      const auth = requireAuth(request);
      const { row, followUps, messages } = await getIncident(db, request.params.id, auth.role, request.edition);
      return { success: true as const, data: presentIncident(row, auth.role, followUps, messages) };
    },
  });

  r.post('/admin/incidents/:id/abuse', {
    config: { access: handle },
    schema: {
      tags: ['incidents'],
      description:
        "Marks the rider's SOS calls as abuse: resolves every unresolved incident their SOS opened with the note, and keeps their later calls apart (stored, no alarm) until the mark is lifted.",
      params: idParam,
      body: markAbuseRequest,
      response: responses({ 200: incidentResponse }, 409),
    },
    handler: async (request) => {
      const auth = requireAuth(request);
      const { row, followUps, messages, resolvedCount } = await markAbuse(
        db,
        request.params.id,
        auth.role,
        actorOf(auth),
        request.body.note,
      );
      return {
        success: true as const,
        data: presentIncident(row, auth.role, followUps, messages),
        message: `Calls marked as abuse; ${resolvedCount} unresolved incident${resolvedCount === 1 ? '' : 's'} resolved`,
      };
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
      const { row, followUps, messages } = await createIncidentForRider(
        db,
        auth.role,
        actorOf(auth),
        request.body,
        app.messenger,
      );
      return reply.code(201).send({
        success: true as const,
        data: presentIncident(row, auth.role, followUps, messages),
        message: 'Incident opened',
      });
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
      const { row, followUps, messages } = await changeIncident(
        db,
        request.params.id,
        auth.role,
        actorOf(auth),
        {
          action: 'acknowledge',
        },
        app.messenger,
      );
      return {
        success: true as const,
        data: presentIncident(row, auth.role, followUps, messages),
        message: 'Incident acknowledged',
      };
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
      const { row, followUps, messages } = await changeIncident(
        db,
        request.params.id,
        auth.role,
        actorOf(auth),
        {
          action: 'assign',
          userId: request.body.userId,
        },
        app.messenger,
      );
      return {
        success: true as const,
        data: presentIncident(row, auth.role, followUps, messages),
        message: 'Incident assigned',
      };
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
      const { row, followUps, messages } = await changeIncident(
        db,
        request.params.id,
        auth.role,
        actorOf(auth),
        {
          action: 'resolve',
          note: request.body.note,
        },
        app.messenger,
      );
      return {
        success: true as const,
        data: presentIncident(row, auth.role, followUps, messages),
        message: 'Incident resolved',
      };
    },
  });
}
