// Calls of the board's tracking layer: every tracked rider's last position, one rider's
// track, the routes' lines, and dismissing a tracker alert. Never polled: `position` events on
// the stream patch the riders in place (use-tracked-riders.ts); a reconnection re-reads.
import type { RouteLine, TrackedRider, TrackPoint } from '@rally/shared/contracts/tracking';
import { queryOptions } from '@tanstack/react-query';
import { call, client } from '../../../../lib/api-client';

export const trackingKeys = {
  all: ['console', 'tracking'] as const,
  riders: ['console', 'tracking', 'riders'] as const,
  track: (userId: string) => ['console', 'tracking', 'track', userId] as const,
  // The key Event Day's Route Lines panel reads the same list under (api/route-tracks-api.ts):
  // one cache, so an uploaded GPX shows on this map at once.
  routes: ['console', 'route-tracks'] as const,
};

export const trackedRidersQuery = () =>
  queryOptions({
    queryKey: trackingKeys.riders,
    queryFn: async (): Promise<TrackedRider[]> => (await call(client.GET('/api/admin/tracking/riders'))).data,
    // Fresh until the stream says otherwise.
    staleTime: Number.POSITIVE_INFINITY,
  });

export const trackQuery = (userId: string) =>
  queryOptions({
    queryKey: trackingKeys.track(userId),
    queryFn: async (): Promise<TrackPoint[]> =>
      (await call(client.GET('/api/admin/tracking/riders/{userId}/track', { params: { path: { userId } } }))).data
        .points,
    staleTime: Number.POSITIVE_INFINITY,
  });

/** The trials' route lines (public): drawn under the riders so "off route" can be seen. */
export const routeLinesQuery = () =>
  queryOptions({
    queryKey: trackingKeys.routes,
    // The document types a point as number[]; the contract's [lat, lng] pair is what is sent.
    queryFn: async (): Promise<RouteLine[]> => (await call(client.GET('/api/routes'))).data as RouteLine[],
  });

export async function dismissAlert(incidentId: string, reason: string): Promise<void> {
  await call(
    client.POST('/api/admin/tracking/alerts/{incidentId}/dismiss', {
      params: { path: { incidentId } },
      body: { reason },
    }),
  );
}
