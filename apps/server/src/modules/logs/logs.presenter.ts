import { RALLY_TIME_ZONE } from '@rally/shared/catalog/event-day';
import type { LogEntry } from '@rally/shared/contracts/logs';
import { iso } from '../../lib/sql-text';
import type { LogRow } from './logs.service';

const formatter = new Intl.DateTimeFormat('en-PH', {
  timeZone: RALLY_TIME_ZONE,
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  second: '2-digit',
});

export function presentLog(row: LogRow): LogEntry {
  const timestamp = iso(row.log_timestamp);
  return {
    id: row.id,
    log_type: row.log_type,
    user_id: row.user_id,
    user_name: row.user_name,
    user_email: row.user_email,
    user_role: row.user_role,
    description: row.description,
    details: row.details,
    location: row.location,
    log_timestamp: timestamp,
    formatted_timestamp: formatter.format(new Date(timestamp)),
  };
}
