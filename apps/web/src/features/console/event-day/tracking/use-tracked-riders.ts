// Keeps the board's tracking layer live from the event stream (push, never polling): a
// `position` event moves its rider's marker in place and extends their track if it is on
// screen; a rider not yet on the board, an incident (an alert opened or dismissed) or a
// (re)connection re-reads the list, since events sent meanwhile are not replayed. A burst (a
// valley of riders flushing their buffers) changes the cached list in place, and re-reads are
// gathered for a quarter second so the board asks once.
import { positionEvent, type TrackedRider, type TrackPoint } from '@rally/shared/contracts/tracking';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEventStream } from '../../../../lib/event-stream';
import { useGatheredInvalidate } from '../../../../lib/use-gathered-invalidate';
import { trackedRidersQuery, trackingKeys } from './tracking-api';

export function useTrackedRiders() {
  const queryClient = useQueryClient();
  const query = useQuery(trackedRidersQuery());

  const reread = useGatheredInvalidate(trackingKeys.all);

  useEventStream((event) => {
    if (event.type === 'open' || event.type === 'incident') {
      reread();
      return;
    }
    if (event.type !== 'position') return;
    const parsed = positionEvent.safeParse(event.data);
    if (!parsed.success) return;
    const moved = parsed.data;
    let known = false;
    queryClient.setQueryData<TrackedRider[]>(trackingKeys.riders, (list) =>
      list?.map((rider) => {
        if (rider.userId !== moved.userId) return rider;
        known = true;
        // A late event for an older position never moves the marker back.
        if (rider.last && Date.parse(rider.last.at) > Date.parse(moved.last.at)) return rider;
        return { ...rider, state: moved.state, last: moved.last, alongM: moved.alongM ?? rider.alongM };
      }),
    );
    if (!known) reread();
    queryClient.setQueryData<TrackPoint[]>(trackingKeys.track(moved.userId), (points) =>
      points && !points.some((p) => p.at === moved.last.at)
        ? [...points, moved.last].sort((a, b) => Date.parse(a.at) - Date.parse(b.at))
        : points,
    );
  });

  return query;
}
