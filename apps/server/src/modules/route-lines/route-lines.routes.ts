// Routes as lines (DESIGN.md §11): the organiser uploads each trial's GPX on Event Day, per
// edition; the landing map and the board draw it, and the alerts measure riders against it.
import { MAX_UPLOAD_BYTES } from '@rally/shared/catalog/registration';
import { messageEnvelope } from '@rally/shared/contracts/common';
import { routeLineResponse, routesResponse, routeTrialParam } from '@rally/shared/contracts/tracking';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { actorOf } from '../../lib/actor';
import { requireAuth } from '../../lib/authorize';
import { BadRequestError } from '../../lib/errors';
import { type FilePartRule, readMultipart } from '../../lib/multipart';
import { responses } from '../../lib/route-helpers';
import { presentRouteLine } from './route-lines.presenter';
import { currentRouteLines, deleteRouteTrack, saveRouteTrack } from './route-lines.service';

const access = { permission: 'manage_event' } as const;

// Browsers name a .gpx file's type variously (or not at all): the server reads its bytes.
const gpxPart: FilePartRule = {
  mediaTypes: ['application/gpx+xml', 'application/xml', 'text/xml', 'application/octet-stream'],
  maxBytes: MAX_UPLOAD_BYTES,
  required: false,
  description: 'The trial’s GPX file (1.0 or 1.1; tracks, or routes when it has no track).',
};

export async function routeTrackRoutes(app: FastifyInstance, opts: { db: Db; config: Config }) {
  const { db } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/routes', {
    config: { access: 'public' },
    schema: {
      tags: ['tracking'],
      description:
        'The current edition’s route line of every trial that has one (`points`: [lat, lng] pairs simplified for drawing, within about 40 m of the uploaded track; `lengthM`: the full track’s length). A trial without an uploaded GPX is absent.',
      response: responses({ 200: routesResponse }),
    },
    handler: async () => ({ success: true as const, data: (await currentRouteLines(db)).map(presentRouteLine) }),
  });

  r.put('/admin/routes/:trial/track', {
    config: { access, multipart: { files: { file: gpxPart, track: gpxPart } } },
    schema: {
      tags: ['tracking'],
      description:
        'Sets the trial’s route line in the current edition from a GPX file (multipart, one file in the field `file` or `track`), replacing any earlier one. Every track segment of every track is joined in file order (a file without a track: its routes). Refused with 400 GPX_INVALID and the reason (not GPX, broken XML, a point out of range, fewer than 2 points, more than 500,000), storing nothing. Stored simplified: to 5 m for the alerts, to 40 m for maps. A past edition is read-only.',
      params: routeTrialParam,
      response: responses({ 200: routeLineResponse }),
    },
    handler: async (request) => {
      const auth = requireAuth(request);
      const { files } = await readMultipart(request);
      if (files.file && files.track)
        throw new BadRequestError('Send one GPX file, in the field file or track, not both', 'DUPLICATE_FIELD');
      const part = files.file ?? files.track;
      if (!part) throw new BadRequestError('No GPX file was sent (multipart field file or track)', 'NO_FILE');
      const row = await saveRouteTrack(
        db,
        request.params.trial,
        { buffer: part.buffer, filename: part.filename },
        actorOf(auth),
        app.clock.now(),
      );
      const km = (row.lengthM / 1000).toFixed(1);
      return { success: true as const, message: `Route line saved: ${km} km`, data: presentRouteLine(row) };
    },
  });

  r.delete('/admin/routes/:trial/track', {
    config: { access },
    schema: {
      tags: ['tracking'],
      description:
        'Removes the trial’s route line in the current edition: maps fall back to straight lines between the waypoints and riders are no longer measured against a line. 404 when it has none.',
      params: routeTrialParam,
      response: responses({ 200: messageEnvelope }, 404),
    },
    handler: async (request) => {
      await deleteRouteTrack(db, request.params.trial, actorOf(requireAuth(request)));
      return { success: true as const, message: 'Route line removed' };
    },
  });
}
