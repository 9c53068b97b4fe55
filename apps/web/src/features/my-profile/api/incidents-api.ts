// The rider's own incidents (GET /api/my/incidents). There is no rider stream, so while an
// incident is not yet resolved its state is re-read on a modest interval; nothing is polled
// once every incident is resolved.
import { queryOptions } from '@tanstack/react-query';
import { call, client } from '../../../lib/api-client';

export const MY_INCIDENT_REFRESH_MS = 10_000;
export const myIncidentsKey = ['my', 'incidents'] as const;

export const myIncidentsQuery = () =>
  queryOptions({
    queryKey: myIncidentsKey,
    queryFn: async () => (await call(client.GET('/api/my/incidents'))).data,
    refetchInterval: (query) =>
      query.state.data?.some((i) => i.status !== 'resolved') ? MY_INCIDENT_REFRESH_MS : false,
    refetchIntervalInBackground: true,
  });
