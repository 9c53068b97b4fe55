// Runs an export for a viewer: finds it by file name, queries its rows, writes the file
// and logs the download (who, which export, which format, how many rows) in the activity
// log, where the Reports tab reads the last download back.
import { SENSITIVE_KEYS, type SensitiveKind } from '@rally/shared/catalog/privacy';
import {
  EXPORT_FORMATS,
  EXPORT_MEDIA_TYPES,
  EXPORT_REASON_MIN,
  EXPORT_REASON_REQUIRED,
  type ExportFormat,
} from '@rally/shared/contracts/exports';
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { activities } from '../../db/schema/activities';
import type { EditionRead } from '../../lib/edition-of';
import { BadRequestError, NotFoundError } from '../../lib/errors';
import { recordActivity } from '../activities/activities.service';
import { recordAccess } from '../data-access/data-access.service';
import { sensitiveReadsIn } from '../data-access/sensitive-reads';
import type { ExportDefinition, ExportViewer } from './export-definition';
import { EXPORTS, exportNamed } from './export-registry';
import { manilaDate, writeExport } from './spreadsheet';

const FILE_NAME = /^([a-z0-9]+(?:-[a-z0-9]+)*)\.([a-z]+)$/;

/** `masterlist.csv` → the export and the format; anything else is a 404 naming what exists. */
export function resolveExportFile(file: string): { definition: ExportDefinition; format: ExportFormat } {
  const match = FILE_NAME.exec(file);
  const definition = match?.[1] ? exportNamed(match[1]) : undefined;
  const format = EXPORT_FORMATS.find((f) => f === match?.[2]);
  if (!definition || !format) {
    throw new NotFoundError(
      `No such export. Ask for one of ${EXPORTS.map((e) => e.name).join(', ')}, as .csv or .xlsx.`,
      'EXPORT_NOT_FOUND',
    );
  }
  return { definition, format };
}

/**
 * The sensitive kinds an export's columns carry (read from its column keys, as the access
 * log reads its rows): the masterlist's birthdates and emergency contacts, the incidents'
 * positions. A new column of one of these kinds makes its export ask for a reason by itself.
 */
export function sensitiveKindsOf(definition: ExportDefinition): SensitiveKind[] {
  const kinds = new Set<SensitiveKind>();
  for (const column of definition.columns) {
    const kind = SENSITIVE_KEYS[column.key];
    if (kind) kinds.add(kind);
  }
  return [...kinds].sort();
}

/** The reason an export with sensitive columns needs (DESIGN.md §12), trimmed; null for the others. */
function reasonFor(definition: ExportDefinition, reason: string | undefined): string | null {
  if (sensitiveKindsOf(definition).length === 0) return null;
  const said = reason?.trim() ?? '';
  if (said.length < EXPORT_REASON_MIN) throw new BadRequestError(EXPORT_REASON_REQUIRED, 'REASON_REQUIRED');
  return said;
}

export interface ExportFile {
  fileName: string;
  mediaType: string;
  bytes: Buffer;
  rows: number;
}

/**
 * Writes an export of `edition` (the current one when undefined) and logs the download. One
 * carrying sensitive columns needs `reason` first: refused without it, nothing is read or logged.
 */
export async function runExport(
  db: Db,
  file: string,
  viewer: ExportViewer,
  now = new Date(),
  edition?: EditionRead,
  reason?: string,
): Promise<ExportFile> {
  const { definition, format } = resolveExportFile(file);
  const why = reasonFor(definition, reason);
  const rows = await definition.rows(db, viewer, edition);
  const bytes = await writeExport(format, definition.title, definition.columns, rows);
  // Who looked: a download carrying birthdates, emergency contacts or positions is a read of
  // every rider in it (DESIGN.md §12), found in the rows as in any staff answer.
  await recordAccess(
    db,
    { staffId: viewer.id, staffName: viewer.name, ip: viewer.ip ?? null },
    `export ${file}`,
    sensitiveReadsIn(rows),
    why,
  );
  await recordActivity(db, {
    type: 'export_downloaded',
    priority: 'low',
    actorId: viewer.id,
    actorName: viewer.name,
    description: `${definition.title} exported as ${format.toUpperCase()} (${rows.length} rows)`,
    details: `By ${viewer.name}`,
    metadata: { export: definition.name, format, rows: rows.length },
  });
  return {
    fileName: `${definition.name}-${manilaDate(now)}.${format}`,
    mediaType: EXPORT_MEDIA_TYPES[format],
    bytes,
    rows: rows.length,
  };
}

/**
 * The Reports tab's list: each export with its row count in `edition` (the current one when
 * undefined) and its last download (the install's log, whichever edition it was of).
 */
export async function listExports(db: Db, viewer: ExportViewer, edition?: EditionRead) {
  return Promise.all(
    EXPORTS.map(async (e) => {
      const [rows, last] = await Promise.all([
        e.rows(db, viewer, edition),
        db
          .select({ at: activities.createdAt, by: activities.actorName })
          .from(activities)
          .where(and(eq(activities.type, 'export_downloaded'), sql`${activities.metadata}->>'export' = ${e.name}`))
          .orderBy(desc(activities.createdAt))
          .limit(1),
      ]);
      return {
        name: e.name,
        title: e.title,
        description: e.description,
        sensitiveKinds: sensitiveKindsOf(e),
        rows: rows.length,
        lastDownloadedAt: last[0]?.at.toISOString() ?? null,
        lastDownloadedBy: last[0]?.by ?? null,
      };
    }),
  );
}
