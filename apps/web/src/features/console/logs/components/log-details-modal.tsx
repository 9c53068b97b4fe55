import type { LogEntry } from '@rally/shared/contracts/logs';
import { LOG_SOURCE_TABLES } from '@rally/shared/contracts/logs';
import { Modal } from '../../../../components/ui/modal';
import { CloseFooter, DetailField } from '../../components/detail-field';
import { LogTypeBadge, logTime } from './log-display';

export function LogDetailsModal({ log, onClose }: { log: LogEntry | null; onClose: () => void }) {
  return (
    <Modal
      open={log !== null}
      onClose={onClose}
      title="Log Details"
      className="max-w-xl"
      footer={<CloseFooter onClose={onClose} />}
    >
      {log && (
        <div className="space-y-5">
          <div className="flex flex-wrap items-center gap-3">
            <LogTypeBadge type={log.log_type} />
            <span className="text-sm text-ash">{logTime(log)}</span>
          </div>
          {log.user_name && (
            <section>
              <h3 className="mb-2 text-lg text-bone">User</h3>
              <dl className="grid grid-cols-1 gap-3 sm:grid-cols-3">
                <DetailField label="Name">{log.user_name}</DetailField>
                <DetailField label="Email">{log.user_email || '—'}</DetailField>
                <DetailField label="Role">{log.user_role || '—'}</DetailField>
              </dl>
            </section>
          )}
          <dl className="space-y-3">
            <DetailField label="Description">{log.description}</DetailField>
            {log.details && <DetailField label="Details">{log.details}</DetailField>}
            {log.location && <DetailField label="Location">{log.location}</DetailField>}
          </dl>
          <section>
            <h3 className="mb-2 text-lg text-bone">Metadata</h3>
            <dl className="grid grid-cols-1 gap-3 rounded-md border border-ink-700 bg-ink-850 p-3 font-mono text-xs sm:grid-cols-2">
              <DetailField label="Log ID">{log.id}</DetailField>
              <DetailField label="Source table">{LOG_SOURCE_TABLES[log.log_type] ?? log.log_type}</DetailField>
              <DetailField label="Timestamp">{log.log_timestamp || 'Unknown'}</DetailField>
              <DetailField label="User ID">{log.user_id || '—'}</DetailField>
            </dl>
          </section>
        </div>
      )}
    </Modal>
  );
}
