// A rider's data for a request received by letter or email (DESIGN.md §12), for staff with
// delete_user: find the rider, prepare their data (in the background, as the rider's own
// "Download my data" does), then download the ZIP to send them. The download is a read of
// their sensitive details: it is written in their access log under the downloader's name.
import type { AdminDataExport } from '@rally/shared/contracts/data-export';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Archive, Download, LoaderCircle } from 'lucide-react';
import { useState } from 'react';
import { buttonStyles } from '../../../../components/ui/button-styles';
import { ApiError } from '../../../../lib/api-client';
import { formatDate } from '../../../../lib/format';
import { toast } from '../../../../lib/toast';
import { zipSize } from '../../../my-profile/privacy/data-export-api';
import type { DataAccessPerson } from './data-access-api';
import { DataAccessPersonPicker } from './data-access-person-picker';
import { downloadLetterExport, letterExportKeys, letterExportQuery, prepareLetterExport } from './letter-export-api';

const failure = (error: unknown, fallback: string) =>
  error instanceof ApiError && error.message ? error.message : fallback;

export function LetterExportPanel() {
  const queryClient = useQueryClient();
  const [rider, setRider] = useState<DataAccessPerson | null>(null);
  const [made, setMade] = useState<AdminDataExport | null>(null);
  const prepare = useMutation({
    mutationFn: (userId: string) => prepareLetterExport(userId),
    onSuccess: (row) => {
      queryClient.setQueryData(letterExportKeys.one(row.id), row);
      setMade(row);
    },
    onError: (error) => toast.error(failure(error, 'Their data could not be prepared')),
  });

  return (
    <section aria-labelledby="letter-export-title" data-testid="letter-export-panel" className="flex flex-col gap-4">
      <div>
        <h3 id="letter-export-title" className="flex items-center gap-2 text-xl">
          <Archive className="size-5 text-fire-400" aria-hidden="true" />A Rider’s Data, by Letter
        </h3>
        <p className="text-sm text-ash">
          For a request received by letter or email: answer within 30 working days. Prepare the rider’s data (the same
          ZIP they get from My Profile), download it and send it to them. Your download is written in their access log.
        </p>
      </div>
      <div className="max-w-xl">
        <DataAccessPersonPicker
          who="riders"
          label="Rider"
          value={rider}
          onChange={(person) => {
            setRider(person);
            setMade(null);
          }}
        />
      </div>
      {rider && !made && (
        <button
          type="button"
          onClick={() => prepare.mutate(rider.id)}
          disabled={prepare.isPending}
          className={buttonStyles('primary', 'md', 'w-full sm:w-fit')}
        >
          {prepare.isPending ? 'Asking…' : 'Prepare their data'}
        </button>
      )}
      {made && <LetterExportState id={made.id} />}
    </section>
  );
}

function LetterExportState({ id }: { id: string }) {
  const query = useQuery(letterExportQuery(id));
  const download = useMutation({
    mutationFn: () => downloadLetterExport(id),
    onError: (error) => toast.error(failure(error, 'The download did not start')),
  });
  const row = query.data;
  if (!row) return query.isError ? <p className="text-ember-400">{failure(query.error, 'Could not load it')}</p> : null;
  if (row.status === 'pending')
    return (
      <p role="status" className="flex items-center gap-2 text-bone" data-testid="letter-export-preparing">
        <LoaderCircle className="size-5 animate-spin text-fire-500" aria-hidden="true" />
        Preparing {row.riderName}’s data…
      </p>
    );
  if (row.status === 'failed')
    return (
      <p role="alert" className="text-ember-400">
        Their data could not be prepared. Pick the rider again and retry; if it fails twice, tell the developer.
      </p>
    );
  return (
    <div className="flex flex-wrap items-center gap-x-4 gap-y-2" data-testid="letter-export-ready">
      <button
        type="button"
        onClick={() => download.mutate()}
        disabled={download.isPending}
        className={buttonStyles('primary', 'md', 'w-full sm:w-auto')}
      >
        <Download className="size-5" aria-hidden="true" />
        {download.isPending ? 'Downloading…' : `Download (ZIP, ${zipSize(row.bytes)})`}
      </button>
      <p className="text-sm text-ash">
        {row.riderName} · available until <span className="font-bold text-bone">{formatDate(row.expiresAt)}</span>
      </p>
    </div>
  );
}
