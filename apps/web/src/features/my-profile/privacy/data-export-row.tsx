// One prepared export in My Profile → Privacy: its download button (the ZIP, with its size)
// and until when it is offered.
import type { DataExport } from '@rally/shared/contracts/data-export';
import { useMutation } from '@tanstack/react-query';
import { Download } from 'lucide-react';
import { buttonStyles } from '../../../components/ui/button-styles';
import { ApiError } from '../../../lib/api-client';
import { formatDate } from '../../../lib/format';
import { toast } from '../../../lib/toast';
import { downloadDataExport, zipSize } from './data-export-api';

export function DataExportDownload({ item, primary }: { item: DataExport; primary: boolean }) {
  const download = useMutation({
    mutationFn: () => downloadDataExport(item.id),
    onError: (error) =>
      toast.error(
        error instanceof ApiError && error.message ? error.message : 'The download did not start. Try again.',
      ),
  });
  return (
    <div className="flex flex-wrap items-center gap-x-4 gap-y-2" data-testid="data-export-ready">
      <button
        type="button"
        onClick={() => download.mutate()}
        disabled={download.isPending}
        className={buttonStyles(primary ? 'primary' : 'secondary', 'md', 'w-full sm:w-auto')}
      >
        <Download className="size-5" aria-hidden="true" />
        {download.isPending ? 'Downloading…' : `Download (ZIP, ${zipSize(item.bytes)})`}
      </button>
      <p className="text-sm text-ash">
        Prepared {formatDate(item.readyAt ?? item.createdAt)} · available until{' '}
        <time dateTime={item.expiresAt} className="font-bold text-bone">
          {formatDate(item.expiresAt)}
        </time>
      </p>
    </div>
  );
}
