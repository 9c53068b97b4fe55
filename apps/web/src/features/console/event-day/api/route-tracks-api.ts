// Each trial's route line (GPX) on Event Day: read from the public list the landing map draws,
// uploaded and removed by manage_event holders for the current edition.
import type { RallyRouteId } from '@rally/shared/catalog/event-day';
import { queryOptions } from '@tanstack/react-query';
import { call, client } from '../../../../lib/api-client';

export const routeTrackKeys = { all: ['console', 'route-tracks'] as const };

export const routeLinesQuery = () =>
  queryOptions({
    queryKey: routeTrackKeys.all,
    queryFn: async () => (await call(client.GET('/api/routes'))).data,
  });

/** The file goes as multipart (field `file`); the browser sets the boundary. */
export async function uploadRouteTrack(trial: RallyRouteId, file: File) {
  const form = new FormData();
  form.append('file', file, file.name);
  const answer = await call(
    client.PUT('/api/admin/routes/{trial}/track', {
      params: { path: { trial } },
      // openapi-fetch sends a FormData body as it is; the document types its parts as strings.
      body: form as unknown as { file?: string },
    }),
  );
  return answer.data;
}

export async function removeRouteTrack(trial: RallyRouteId) {
  await call(client.DELETE('/api/admin/routes/{trial}/track', { params: { path: { trial } } }));
}
