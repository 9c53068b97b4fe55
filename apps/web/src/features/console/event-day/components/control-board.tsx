// The control board (view_dashboard): per station how many riders are
// expected, passed, missed, overdue, DNF or DNS, each count opening the riders behind it;
// the overdue list a marshal calls down; a rider's timeline with DNF/DNS decisions and the
// route rules for manage_event. Live through the event stream, never by polling.
import type { BoardBucket } from '@rally/shared/catalog/event-day';
import type { BoardStation, RiderCourseState } from '@rally/shared/contracts/course';
import { useQuery } from '@tanstack/react-query';
import { Gauge, Radio, Settings2, Siren } from 'lucide-react';
import { useState } from 'react';
import { Modal } from '../../../../components/ui/modal';
import type { StreamStatus } from '../../../../lib/event-stream';
import { QueryStates } from '../../components/list-states';
import { boardQuery, bucketQuery, onCourseQuery, overdueQuery } from '../api/board-api';
import { useBoardStream } from '../hooks/use-board-stream';
import { useOverdueAlarm } from '../hooks/use-overdue-alarm';
import { BoardRiderList } from './board-rider-list';
import { BoardStationGrid, BUCKET_LABELS } from './board-station-grid';
import { RiderTimelineModal } from './rider-timeline-modal';
import { RouteRulesEditor } from './route-rules-editor';

const STREAM_LABEL: Record<StreamStatus, { text: string; tone: string }> = {
  connecting: { text: 'Connecting...', tone: 'border-ink-600 text-ash' },
  live: { text: 'Live', tone: 'border-jade-400 text-jade-400' },
  down: { text: 'Reconnecting...', tone: 'border-ember-500 text-ember-400' },
};

function BucketModal({
  open,
  onClose,
  onTimeline,
}: {
  open: { station: BoardStation; bucket: BoardBucket } | null;
  onClose: () => void;
  onTimeline: (r: RiderCourseState) => void;
}) {
  const query = useQuery({
    ...bucketQuery(open?.station.stationId ?? '', open?.bucket ?? 'expected'),
    enabled: open !== null,
  });
  const title = open ? `${BUCKET_LABELS[open.bucket]} · ${open.station.name}` : '';
  return (
    <Modal open={open !== null} onClose={onClose} title={title} className="max-w-2xl">
      <div className="overflow-y-auto" data-testid="bucket-riders">
        <QueryStates query={query} loadingLabel="Loading riders..." errorMessage="Failed to load the riders">
          {(data) => (
            <BoardRiderList
              key={`${open?.station.stationId}:${open?.bucket}`}
              riders={data.riders}
              onTimeline={onTimeline}
              emptyMessage="No rider here."
            />
          )}
        </QueryStates>
      </div>
    </Modal>
  );
}

export function ControlBoard({ canManage }: { canManage: boolean }) {
  const status = useBoardStream();
  const board = useQuery(boardQuery());
  const overdue = useQuery(overdueQuery());
  const onCourse = useQuery(onCourseQuery());
  useOverdueAlarm(onCourse.data?.riders);
  const [bucket, setBucket] = useState<{ station: BoardStation; bucket: BoardBucket } | null>(null);
  const [timeline, setTimeline] = useState<RiderCourseState | null>(null);
  const stream = STREAM_LABEL[status];
  const overdueCount = overdue.data?.riders.length ?? 0;

  return (
    <section aria-labelledby="board-heading" className="mb-10 space-y-5" data-testid="control-board">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h3 id="board-heading" className="flex items-center gap-2 text-2xl text-bone">
          <Gauge className="size-6 text-fire-400" aria-hidden="true" />
          Control Board
          {overdue.data && <span className="font-sans text-sm text-ash">Day {overdue.data.day}</span>}
        </h3>
        <span
          data-testid="stream-status"
          data-status={status}
          className={`inline-flex items-center gap-1.5 rounded-full border-2 px-3 py-1 text-sm font-bold uppercase ${stream.tone}`}
        >
          <Radio className="size-4" aria-hidden="true" />
          {stream.text}
        </span>
      </div>

      <QueryStates query={board} loadingLabel="Loading the board..." errorMessage="Failed to load the board">
        {(stations) =>
          stations.length === 0 ? (
            <p className="rounded-lg border border-dashed border-ink-600 px-4 py-6 text-center text-ash">
              No start, checkpoint or finish station yet: add stations below.
            </p>
          ) : (
            <BoardStationGrid stations={stations} onOpen={(station, b) => setBucket({ station, bucket: b })} />
          )
        }
      </QueryStates>

      <section aria-labelledby="overdue-heading" className="space-y-3" data-testid="overdue-list">
        <h4
          id="overdue-heading"
          className={`flex items-center gap-2 font-display text-xl tracking-wider uppercase ${
            overdueCount > 0 ? 'text-ember-400' : 'text-bone'
          }`}
        >
          <Siren className="size-5" aria-hidden="true" />
          Overdue
          <span className="font-sans text-base" data-testid="overdue-count">
            {overdueCount}
          </span>
        </h4>
        <QueryStates
          query={overdue}
          loadingLabel="Loading overdue riders..."
          errorMessage="Failed to load overdue riders"
        >
          {(data) => (
            <BoardRiderList
              riders={data.riders}
              onTimeline={setTimeline}
              emptyMessage="Nobody overdue. Every warrior accounted for."
            />
          )}
        </QueryStates>
      </section>

      <details className="rounded-lg border-2 border-ink-700 bg-ink-900 p-3" data-testid="route-rules">
        <summary className="flex min-h-11 cursor-pointer items-center gap-2 font-display text-lg tracking-wider text-bone uppercase">
          <Settings2 className="size-5 text-fire-400" aria-hidden="true" />
          Route rules: cutoffs, required stations, pace
        </summary>
        <div className="mt-3">
          <RouteRulesEditor canEdit={canManage} />
        </div>
      </details>

      <BucketModal open={bucket} onClose={() => setBucket(null)} onTimeline={setTimeline} />
      <RiderTimelineModal rider={timeline} canDecide={canManage} onClose={() => setTimeline(null)} />
    </section>
  );
}
