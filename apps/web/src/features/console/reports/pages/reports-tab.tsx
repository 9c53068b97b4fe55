// Reports (issue 17): the organisers' spreadsheets. This deliberately replaces the specs'
// coming-soon placeholder. The list comes from the server's export registry, so an export
// added there shows here with no change to this tab.
import type { ExportFormat } from '@rally/shared/contracts/exports';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { FileText } from 'lucide-react';
import { useState } from 'react';
import { toast } from '../../../../lib/toast';
import { QueryStates } from '../../components/list-states';
import { TabHeading } from '../../components/tab-heading';
import { downloadExport, fetchExports, reportKeys } from '../api/reports-api';
import { ExportCard } from '../components/export-card';
import { ExportReasonDialog, type ReasonRequest } from '../components/export-reason-dialog';

export default function ReportsTab() {
  const queryClient = useQueryClient();
  const list = useQuery({ queryKey: reportKeys.list, queryFn: fetchExports });
  // An export carrying riders' sensitive data asks why first (DESIGN.md §12).
  const [asking, setAsking] = useState<ReasonRequest | null>(null);
  const download = useMutation({
    mutationFn: ({ name, format, reason }: { name: string; format: ExportFormat; reason?: string }) =>
      downloadExport(name, format, reason),
    onSuccess: (file) => {
      setAsking(null);
      toast.success(`Downloaded ${file.fileName}`);
    },
    // A refused reason stays in the dialog, under its field; any other failure is a toast.
    onError: (error, { reason }) => {
      if (!reason) toast.error(error.message || 'Download failed');
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: reportKeys.list }),
  });

  return (
    <section>
      <TabHeading title="Reports" icon={FileText} />
      <p className="mb-4 max-w-3xl text-ash">
        Spreadsheets for the insurers, the kit printer and the treasurer. Each opens in Excel, Google Sheets or
        LibreOffice; every download is recorded in the system log.
      </p>
      <QueryStates query={list} loadingLabel="Loading reports..." errorMessage="Failed to load reports">
        {(exports) => (
          <div className="grid grid-cols-1 gap-3 md:grid-cols-2 xl:grid-cols-3">
            {exports.map((summary) => (
              <ExportCard
                key={summary.name}
                summary={summary}
                busy={
                  download.isPending && download.variables?.name === summary.name ? download.variables.format : null
                }
                onDownload={(format) => {
                  if (summary.sensitiveKinds.length === 0) return download.mutate({ name: summary.name, format });
                  download.reset();
                  setAsking({ name: summary.name, title: summary.title, format, kinds: summary.sensitiveKinds });
                }}
              />
            ))}
          </div>
        )}
      </QueryStates>
      <ExportReasonDialog
        request={asking}
        busy={download.isPending}
        serverError={download.isError && download.variables?.reason ? download.error.message : null}
        onCancel={() => setAsking(null)}
        onConfirm={(reason) => asking && download.mutate({ name: asking.name, format: asking.format, reason })}
      />
    </section>
  );
}
