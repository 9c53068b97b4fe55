// A request for a file the queue is still processing (a profile opened the moment a rider
// changed their picture, a receipt staff open as it arrives) waits for it a little instead
// of answering "not found": the queue says when a file is done (its `receipt` event on the
// database's channel, lib/event-bus.ts), so the wait is pushed, not polled. Past the limit
// the caller answers as for a missing file; the original is never served (DESIGN.md §13).
import type { EventBus } from '../../lib/event-bus';

/** How long a request waits for a file being processed (a small image takes ~0.1 s). */
export const FILE_WAIT_MS = 10_000;

/** Waits until the file is no longer processing, or the limit passes. */
export type AwaitProcessed = (fileId: string, stillProcessing: () => Promise<boolean>) => Promise<void>;

export function processedWaiter(bus: EventBus, wakeWorker: () => void, timeoutMs = FILE_WAIT_MS): AwaitProcessed {
  return (fileId, stillProcessing) =>
    new Promise<void>((resolve) => {
      let done = false;
      const finish = () => {
        if (done) return;
        done = true;
        clearTimeout(timer);
        unsubscribe();
        resolve();
      };
      // Listening first, then looking again: an event between the caller's read and now is
      // not missed. A feed that comes back may have dropped the event: look again then too.
      const unsubscribe = bus.subscribe((event) => {
        if (event.type === 'live' ? event.live : event.type === 'receipt' && event.data.fileId === fileId) finish();
      });
      const timer = setTimeout(finish, timeoutMs);
      timer.unref();
      wakeWorker();
      stillProcessing().then(
        (processing) => {
          if (!processing) finish();
        },
        () => finish(),
      );
    });
}
