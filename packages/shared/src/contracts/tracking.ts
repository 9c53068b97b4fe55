// Tracking riders between stations (DESIGN.md §11). The OsmAnd protocol that Traccar Client
// speaks is parsed by hand on the server (three forms, its own units); these are the
// product's own calls around it: the rider's opt-in, the routes, the board.
import { z } from 'zod';
import { RALLY_ROUTE_IDS } from '../catalog/event-day';
import { TRACK_STATES } from '../catalog/tracking';
import { envelope, isoDateTime } from './common';

export const trackState = z.enum(TRACK_STATES);

/** One stored position as the board and the rider read it (speed in m/s, battery 0–100). */
export const trackPoint = z.object({
  lat: z.number(),
  lng: z.number(),
  at: z.string(),
  speed: z.number().nullable(),
  accuracy: z.number().nullable(),
  battery: z.number().nullable(),
  charging: z.boolean().nullable(),
});
export type TrackPoint = z.infer<typeof trackPoint>;

/** GET /api/my/tracking (a verified rider). `trackingId` and `setupUrl` only while enabled. */
export const myTracking = z.object({
  enabled: z.boolean(),
  trackingId: z.string().nullable(),
  setupUrl: z.string().nullable(),
  consentVersion: z.string().nullable(),
  consentedAt: z.string().nullable(),
  lastPosition: trackPoint.nullable(),
});
export type MyTracking = z.infer<typeof myTracking>;
export const myTrackingResponse = envelope(myTracking);

/** PUT /api/my/tracking: opt in (with the consent's version read) or out. */
export const putMyTrackingRequest = z
  .object({
    enabled: z.boolean({ message: 'enabled must be true or false' }),
    consentVersion: z
      .string({ message: 'consentVersion must be text' })
      .trim()
      .min(1, { message: 'consentVersion is required to turn tracking on' })
      .max(40, { message: 'consentVersion must be at most 40 characters' })
      .optional(),
  })
  .refine((v) => !v.enabled || v.consentVersion !== undefined, {
    message: 'consentVersion is required to turn tracking on',
    path: ['consentVersion'],
  });
export type PutMyTrackingRequest = z.infer<typeof putMyTrackingRequest>;

/** One trial's route line (GET /api/routes): simplified for drawing, with its length. */
export const routeLine = z.object({
  trial: z.enum(RALLY_ROUTE_IDS),
  name: z.string(),
  lengthM: z.number(),
  /** [lat, lng] pairs, simplified for drawing (within ~40 m of the uploaded track). */
  points: z.array(z.tuple([z.number(), z.number()])),
  uploadedAt: z.string(),
  /** The uploaded file's name, as the organiser's computer called it. */
  fileName: z.string().nullable(),
});
export type RouteLine = z.infer<typeof routeLine>;
export const routesResponse = envelope(z.array(routeLine));
export const routeTrialParam = z.object({
  trial: z.enum(RALLY_ROUTE_IDS, { message: `trial must be one of: ${RALLY_ROUTE_IDS.join(', ')}` }),
});
export const routeLineResponse = envelope(routeLine);

/** A tracker alert on the board: open until staff dismiss it (or the incident is resolved). */
export const trackingAlert = z.object({
  incidentId: z.uuid(),
  kind: z.enum(['stopped', 'off_route']),
  since: z.string(),
});

/** GET /api/admin/tracking/riders: each tracked rider's last position and where that puts them. */
export const trackedRider = z.object({
  userId: z.uuid(),
  riderNumber: z.number().int().nullable(),
  kitName: z.string().nullable(),
  firstName: z.string(),
  lastName: z.string(),
  route: z.enum(RALLY_ROUTE_IDS).nullable(),
  state: trackState,
  last: trackPoint.nullable(),
  /** Metres along the rider's route line; null without a line or a position. */
  alongM: z.number().nullable(),
  /** Metres from the route line at the last position. */
  offRouteM: z.number().nullable(),
  /** Recent moving speed (m/s) the ETA is figured from. */
  movingSpeed: z.number().nullable(),
  nextStation: z
    .object({ id: z.uuid(), name: z.string(), distanceM: z.number(), eta: z.string().nullable() })
    .nullable(),
  lowBattery: z.boolean(),
  stoppedSince: z.string().nullable(),
  alert: trackingAlert.nullable(),
});
export type TrackedRider = z.infer<typeof trackedRider>;
export const trackedRidersResponse = envelope(z.array(trackedRider));

/** GET /api/admin/tracking/riders/{userId}/track?since= */
export const trackQuery = z.object({ since: isoDateTime('since').optional() });
export const userIdParam = z.object({ userId: z.uuid({ message: 'userId must be a user id' }) });
export const trackResponse = envelope(z.object({ userId: z.uuid(), points: z.array(trackPoint) }));

/** POST /api/admin/tracking/alerts/{incidentId}/dismiss: staff say why the alert is no worry. */
export const dismissAlertRequest = z.object({
  reason: z
    .string({ message: 'reason must be text' })
    .trim()
    .min(2, { message: 'Say why: a reason is required (e.g. "fuel stop")' })
    .max(200, { message: 'reason must be at most 200 characters' }),
});
export type DismissAlertRequest = z.infer<typeof dismissAlertRequest>;

/** The `position` event on the staff event stream (handle_incidents only). */
export const positionEvent = z.object({
  userId: z.uuid(),
  riderNumber: z.number().int().nullable(),
  state: trackState,
  last: trackPoint,
  alongM: z.number().nullable(),
});
export type PositionEvent = z.infer<typeof positionEvent>;
