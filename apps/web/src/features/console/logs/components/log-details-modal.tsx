import type { LogEntry } from '@rally/shared/contracts/logs';
import { LOG_SOURCE_TABLES } from '@rally/shared/contracts/logs';
import type { ReactNode } from 'react';
import { buttonStyles } from '../../../../components/ui/button-styles';
import { Modal } from '../../../../components/ui/modal';
import { LogTypeBadge, logTime } from './log-display';

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt className="text-xs font-bold uppercase tracking-wide text-smoke">{label}</dt>
      <dd className="mt-0.5 break-words text-bone">{children}</dd>
    </div>
  );
}

export function LogDetailsModal({ log, onClose }: { log: LogEntry | null; onClose: () => void }) {
  return (
    <Modal
      open={log !== null}
      onClose={onClose}
      title="Log Details"
      className="max-w-xl"
      footer={
        <div className="flex justify-end">
          <button type="button" onClick={onClose} className={buttonStyles('secondary')}>
            Close
          </button>
        </div>
      }
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
                <Field label="Name">{log.user_name}</Field>
                <Field label="Email">{log.user_email || '—'}</Field>
                <Field label="Role">{log.user_role || '—'}</Field>
              </dl>
            </section>
          )}
          <dl className="space-y-3">
            <Field label="Description">{log.description}</Field>
            {log.details && <Field label="Details">{log.details}</Field>}
            {log.location && <Field label="Location">{log.location}</Field>}
          </dl>
          <section>
            <h3 className="mb-2 text-lg text-bone">Metadata</h3>
            <dl className="grid grid-cols-1 gap-3 rounded-md border border-ink-700 bg-ink-850 p-3 font-mono text-xs sm:grid-cols-2">
              <Field label="Log ID">{log.id}</Field>
              <Field label="Source table">{LOG_SOURCE_TABLES[log.log_type] ?? log.log_type}</Field>
              <Field label="Timestamp">{log.log_timestamp || 'Unknown'}</Field>
              <Field label="User ID">{log.user_id || '—'}</Field>
            </dl>
          </section>
        </div>
      )}
    </Modal>
  );
}
