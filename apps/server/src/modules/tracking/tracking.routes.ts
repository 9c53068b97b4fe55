// Positions in and the rider's opt-in (DESIGN.md §11):
// - GET|POST /api/tracking/osmand: Traccar Client's OsmAnd protocol. Public: the tracking id
//   the request carries is its credential. The forms' parsers live in this plugin alone, so
//   no other route starts taking form bodies.
// - GET|PUT /api/my/tracking: the verified rider's tracker, consent and setup link.
import { parse as parseQuery } from 'node:querystring';
import { myTrackingResponse, putMyTrackingRequest } from '@rally/shared/contracts/tracking';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Config } from '../../config';
import type { Db } from '../../db/client';
import { requireAuth } from '../../lib/authorize';
import { responses } from '../../lib/route-helpers';
import { osmandAnswer, osmandBody, osmandQuery, readOsmand } from './osmand';
import { ingestPositions } from './positions.service';
import { myTracker, setMyTracking } from './trackers.service';
import { presentMyTracking } from './tracking.presenter';

const OSMAND_DESCRIPTION =
  'Traccar Client’s OsmAnd protocol, all three forms: the query string (the Android app: POST with the parameters in the URL, empty body) or a form body; app 9.x’s JSON `{ location: { timestamp, coords: { latitude, longitude, accuracy, speed (m/s), heading, altitude }, battery: { level (0–1), is_charging }, extras: { alarm } }, device_id }`; app 10.x’s JSON array of form objects. ' +
  'Form keys: `id` (or `deviceid`), `lat`, `lon`, `timestamp` (Unix seconds, milliseconds or ISO 8601), `speed` (knots), `bearing`, `altitude`, `accuracy`, `batt` (0–100), `charge`, `alarm=sos` (opens an SOS as the rider pass’s button does). ' +
  '200 when stored or already stored (an entry and a time is one position); 400 naming the problem of a malformed position (nothing of the request is stored); 404 for an unknown id, tracking turned off, or another edition’s tracker. A position older than the last is stored without moving the last position.';

export async function trackingRoutes(app: FastifyInstance, opts: { db: Db; config: Config }) {
  const { db, config } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get('/my/tracking', {
    config: { access: 'verified' },
    schema: {
      tags: ['tracking'],
      description:
        'The caller’s live tracking in the current edition: on or off, the consent given, the last position, and (only while on) the secret tracking id and Traccar Client’s setup link for the rider pass’s QR code.',
      response: responses({ 200: myTrackingResponse }),
    },
    handler: async (request) => {
      const row = await myTracker(db, requireAuth(request).userId);
      return { success: true as const, data: presentMyTracking(row, config.publicUrl) };
    },
  });

  r.put('/my/tracking', {
    config: { access: 'verified' },
    schema: {
      tags: ['tracking'],
      description:
        'Turns live tracking on (`consentVersion` must be the consent text’s current version, else 409 CONSENT_REQUIRED naming it) or off (the tracking id stops working at once). Turning it on again after off makes a new tracking id.',
      body: putMyTrackingRequest,
      response: responses({ 200: myTrackingResponse }, 409),
    },
    handler: async (request) => {
      const row = await setMyTracking(db, requireAuth(request), request.body, app.clock.now());
      return {
        success: true as const,
        message: row.enabled ? 'Live tracking is on' : 'Live tracking is off',
        data: presentMyTracking(row, config.publicUrl),
      };
    },
  });

  await app.register(osmandRoutes, opts);
}

async function osmandRoutes(app: FastifyInstance, opts: { db: Db; config: Config }) {
  const { db, config } = opts;
  const r = app.withTypeProvider<ZodTypeProvider>();

  // Some senders post the keys as a form; Traccar's own server reads those too.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 64 * 1024 },
    (_req, body, done) => done(null, parseQuery(body.toString())),
  );

  const handler = async (request: FastifyRequest) => {
    const parsed = readOsmand(request.query as Record<string, unknown>, request.body);
    const result = await ingestPositions(db, parsed, {
      now: app.clock.now(),
      messenger: app.messenger,
      // TRACKING_STOPPED_MIN and TRACKING_OFF_ROUTE_M.
      thresholds: { stoppedMinutes: config.tracking.stoppedMinutes, offRouteM: config.tracking.offRouteM },
    });
    const message =
      result.stored === 0 ? 'Already stored' : `${result.stored} position${result.stored === 1 ? '' : 's'} stored`;
    return { success: true as const, message, data: result };
  };
  // Riders share addresses (carrier-grade NAT, one valley's cell tower) and a phone back in
  // coverage flushes its buffer at once: a ceiling per address well above the API's.
  const rateLimit = config.rateLimits.enabled
    ? { max: config.rateLimits.globalPerMinute * 10, timeWindow: 60_000 }
    : false;
  // The forms are read by hand (readOsmand): the schemas describe them for the document.
  const passThrough = () => (value: unknown) => ({ value });

  r.get('/tracking/osmand', {
    config: { access: 'public', rateLimit },
    validatorCompiler: passThrough,
    schema: {
      tags: ['tracking'],
      description: OSMAND_DESCRIPTION,
      querystring: osmandQuery,
      response: responses({ 200: osmandAnswer }, 404),
    },
    handler,
  });

  r.post('/tracking/osmand', {
    config: { access: 'public', rateLimit },
    validatorCompiler: passThrough,
    schema: {
      tags: ['tracking'],
      description: OSMAND_DESCRIPTION,
      querystring: osmandQuery,
      body: osmandBody,
      consumes: ['application/json', 'application/x-www-form-urlencoded'],
      response: responses({ 200: osmandAnswer }, 404),
    },
    handler,
  });
}
