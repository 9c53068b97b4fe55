// Route lines (manage_event): each trial's GPX file for this edition. The landing map draws
// the line instead of straight segments between the waypoints, and tracked riders are
// measured against it (off route, distance along, arrival at the next station).
import { RALLY_ROUTE_IDS, type RallyRouteId } from '@rally/shared/catalog/event-day';
import { RALLY_ROUTES } from '@rally/shared/catalog/landing';
import type { RouteLine } from '@rally/shared/contracts/tracking';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Route, Trash2, Upload } from 'lucide-react';
import { useId, useRef, useState } from 'react';
import { buttonStyles } from '../../../../components/ui/button-styles';
import { inputStyles, labelStyles } from '../../../../components/ui/field-styles';
import { ApiError } from '../../../../lib/api-client';
import { formatDate } from '../../../../lib/format';
import { toast } from '../../../../lib/toast';
import { usePastEdition } from '../../components/past-edition-context';
import { SelectField } from '../../components/select-field';
import { removeRouteTrack, routeLinesQuery, routeTrackKeys, uploadRouteTrack } from '../api/route-tracks-api';

const TRIAL_OPTIONS = RALLY_ROUTE_IDS.map((id) => [id, RALLY_ROUTES[id].name] as const);

const messageOf = (error: unknown, fallback: string) => (error instanceof ApiError ? error.message : fallback);

/** What a row shows (the drawn points are the maps'). */
type LineSummary = Omit<RouteLine, 'points'>;

const km = (metres: number) => `${(metres / 1000).toFixed(1)} km`;

function uploadedAt(iso: string): string {
  const at = new Date(iso);
  return `${formatDate(at)}, ${at.toLocaleTimeString('en-PH', { hour: 'numeric', minute: '2-digit' })}`;
}

function TrialLine({
  trial,
  line,
  busy,
  canEdit,
  onRemove,
}: {
  trial: RallyRouteId;
  line: LineSummary | undefined;
  busy: boolean;
  canEdit: boolean;
  onRemove: () => void;
}) {
  const route = RALLY_ROUTES[trial];
  return (
    <li
      data-testid="route-track"
      data-trial={trial}
      className="flex flex-col gap-3 rounded-lg border-2 border-ink-700 bg-ink-900 p-4"
    >
      <div className="flex items-center gap-2">
        <svg className="size-4 shrink-0" viewBox="0 0 16 16" aria-hidden="true">
          <circle cx="8" cy="8" r="8" fill={route.color} />
        </svg>
        <h4 className="font-display text-xl leading-tight tracking-wide text-bone uppercase wrap-anywhere">
          {route.name.replace('/', '/\u200b')}
        </h4>
      </div>
      {line ? (
        <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
          <dt className="font-bold text-ash uppercase">Length</dt>
          <dd className="font-bold text-bone" data-testid="route-track-length">
            {km(line.lengthM)}
          </dd>
          <dt className="font-bold text-ash uppercase">Uploaded</dt>
          <dd className="text-bone">{uploadedAt(line.uploadedAt)}</dd>
          <dt className="font-bold text-ash uppercase">File</dt>
          <dd className="text-bone wrap-anywhere">{line.fileName ?? line.name}</dd>
        </dl>
      ) : (
        <p className="text-sm text-ash">No line yet: maps draw straight segments between the waypoints.</p>
      )}
      {line && canEdit && (
        <button
          type="button"
          className={buttonStyles('ghost', 'md', 'mt-auto self-start border-2 border-ink-600')}
          disabled={busy}
          onClick={onRemove}
        >
          <Trash2 className="size-5" aria-hidden="true" />
          Remove <span className="sr-only">the {route.name} line</span>
        </button>
      )}
    </li>
  );
}

export function RouteTracksPanel() {
  const queryClient = useQueryClient();
  const lines = useQuery(routeLinesQuery());
  const past = usePastEdition() !== null;
  const [trial, setTrial] = useState<RallyRouteId>('lakambini');
  const [file, setFile] = useState<File | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const fileId = useId();
  const problemId = useId();
  const refresh = () => queryClient.invalidateQueries({ queryKey: routeTrackKeys.all });

  const upload = useMutation({
    mutationFn: ({ trial, file }: { trial: RallyRouteId; file: File }) => uploadRouteTrack(trial, file),
    onSuccess: (line) => {
      toast.success(`${RALLY_ROUTES[line.trial].name} line saved: ${km(line.lengthM)}`);
      setFile(null);
      if (fileInput.current) fileInput.current.value = '';
    },
    onError: (error) => setProblem(messageOf(error, 'Failed to upload the GPX file')),
    onSettled: refresh,
  });
  const remove = useMutation({
    mutationFn: removeRouteTrack,
    onSuccess: (_, removed) => toast.success(`${RALLY_ROUTES[removed].name} line removed`),
    onError: (error) => setProblem(messageOf(error, 'Failed to remove the line')),
    onSettled: refresh,
  });
  const byTrial = new Map((lines.data ?? []).map((l) => [l.trial, l]));
  const canEdit = !past;

  return (
    <section aria-labelledby="route-tracks-heading" className="mt-10 space-y-4">
      <h3 id="route-tracks-heading" className="flex items-center gap-2 text-2xl text-bone">
        <Route className="size-6 text-fire-400" aria-hidden="true" />
        Route Lines
      </h3>
      <p className="text-sm text-ash">
        Each trial’s GPX file from the route planner. The landing map draws it, and tracked riders are measured against
        it (off route, distance along, arrival at the next station). A new file replaces the old one.
      </p>
      {past ? (
        <p className="font-bold text-ash">
          A past edition is read only: switch back to the current edition to change its lines.
        </p>
      ) : (
        <form
          className="grid gap-3 rounded-lg border-2 border-ink-700 p-4 sm:grid-cols-[14rem_1fr_auto] sm:items-end"
          onSubmit={(e) => {
            e.preventDefault();
            setProblem(null);
            if (!file) {
              setProblem('Choose a GPX file first');
              return;
            }
            upload.mutate({ trial, file });
          }}
        >
          <SelectField label="Trial" value={trial} onChange={setTrial} options={TRIAL_OPTIONS} />
          <div>
            <label htmlFor={fileId} className={labelStyles}>
              GPX file
            </label>
            <input
              id={fileId}
              ref={fileInput}
              type="file"
              accept=".gpx,application/gpx+xml,application/xml,text/xml"
              aria-describedby={problem ? problemId : undefined}
              aria-invalid={problem ? true : undefined}
              className={`${inputStyles} file:mr-3 file:rounded file:border-0 file:bg-ink-700 file:px-3 file:py-1 file:font-bold file:text-bone`}
              onChange={(e) => {
                setProblem(null);
                setFile(e.target.files?.[0] ?? null);
              }}
            />
          </div>
          <button type="submit" className={buttonStyles('primary')} disabled={upload.isPending}>
            <Upload className="size-5" aria-hidden="true" />
            {upload.isPending ? 'Uploading...' : 'Upload Line'}
          </button>
        </form>
      )}
      {problem && (
        <p
          id={problemId}
          role="alert"
          className="rounded-md border border-ember-600 bg-ember-700/15 px-3 py-2 font-bold text-ember-400"
        >
          {problem}
        </p>
      )}
      {lines.isError && <p className="font-bold text-ember-400">Failed to load the route lines</p>}
      <ul className="grid gap-3 sm:grid-cols-3" aria-label="Route lines by trial" aria-busy={lines.isPending}>
        {RALLY_ROUTE_IDS.map((id) => (
          <TrialLine
            key={id}
            trial={id}
            line={byTrial.get(id)}
            canEdit={canEdit}
            busy={remove.isPending}
            onRemove={() => {
              if (!window.confirm(`Remove the ${RALLY_ROUTES[id].name} line? Maps fall back to straight segments.`))
                return;
              setProblem(null);
              remove.mutate(id);
            }}
          />
        ))}
      </ul>
    </section>
  );
}
