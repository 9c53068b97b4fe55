// Keeps the control board live: every `scan` and `course` event from the server's stream
// marks the board's queries stale and refetches the ones on screen. A burst (a marshal's
// phone syncing 500 scans) arrives as many events; they are gathered for a quarter second
// so the board refetches once, not 500 times. After a reconnection (or the server's feed
// coming back) everything is refetched, since events are not replayed.
import { type StreamStatus, useEventStream, useEventStreamStatus } from '../../../../lib/event-stream';
import { useGatheredInvalidate } from '../../../../lib/use-gathered-invalidate';
import { usePastEdition } from '../../components/past-edition-context';
import { boardKeys } from '../api/board-api';

export function useBoardStream(): StreamStatus {
  // Today's scans change nothing of a past edition's board (each read of it is an archive's).
  const past = usePastEdition() !== null;

  const refresh = useGatheredInvalidate(boardKeys.all);

  useEventStream((event) => {
    // `open`: a (re)connection or the server's feed back; events meanwhile are not replayed.
    if (past) return;
    if (event.type === 'scan' || event.type === 'course' || event.type === 'open') refresh();
  });
  return useEventStreamStatus();
}
