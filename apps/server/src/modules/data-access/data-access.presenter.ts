import { SENSITIVE_KIND_LABELS, type SensitiveKind } from '@rally/shared/catalog/privacy';
import type { AffectedRider, DataAccessEntry, DataAccessPerson } from '@rally/shared/contracts/data-access';
import { fullName, iso } from '../../lib/sql-text';
import { toCsv } from '../exports/spreadsheet';
import type { AffectedRow, DataAccessRow, PersonRow } from './data-access.service';

export function presentDataAccess(row: DataAccessRow): DataAccessEntry {
  return {
    id: row.id,
    at: iso(row.at),
    staffId: row.staffId,
    staffName: row.staffName,
    riderId: row.riderId,
    riderName: fullName(row.riderFirstName, row.riderLastName),
    fields: row.fields as SensitiveKind[],
    source: row.source,
    reason: row.reason,
  };
}

/** What the rider reads: the same line without naming themselves. */
export function presentMyDataAccess(row: DataAccessRow) {
  const { riderId: _id, riderName: _name, ...line } = presentDataAccess(row);
  return line;
}

export function presentPerson(row: PersonRow): DataAccessPerson {
  return { id: row.id, name: fullName(row.firstName, row.lastName), email: row.email, role: row.role };
}

export function presentAffected(row: AffectedRow): AffectedRider {
  return {
    riderId: row.riderId,
    name: fullName(row.firstName, row.lastName),
    email: row.email,
    phoneNumber: row.phoneNumber,
    fields: row.fields,
    reads: row.reads,
    firstAt: iso(row.firstAt),
    lastAt: iso(row.lastAt),
  };
}

const CSV_COLUMNS = [
  { key: 'riderId', header: 'Rider ID' },
  { key: 'name', header: 'Name' },
  { key: 'email', header: 'Email' },
  { key: 'phoneNumber', header: 'Phone' },
  { key: 'fields', header: 'Fields read' },
  { key: 'reads', header: 'Reads' },
  { key: 'firstAt', header: 'First read (Manila)' },
  { key: 'lastAt', header: 'Last read (Manila)' },
];

/** The breach kit as CSV, for the 72-hour notice: written as the Reports tab's exports are. */
export function affectedCsv(rows: AffectedRider[]): Buffer {
  return toCsv(
    CSV_COLUMNS,
    rows.map((r) => ({
      ...r,
      fields: r.fields.map((f) => SENSITIVE_KIND_LABELS[f]).join('; '),
      firstAt: new Date(r.firstAt),
      lastAt: new Date(r.lastAt),
    })),
  );
}
