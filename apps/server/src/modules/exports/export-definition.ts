// What an export is (see export-registry.ts): a name, a title, its columns and a query
// giving its rows, for the viewer who downloads it.
import type { Role } from '@rally/shared/catalog/accounts';
import type { Db } from '../../db/client';
import type { EditionRead } from '../../lib/edition-of';

/** A cell: text, a number, a moment (written in Manila time), or empty. */
export type Cell = string | number | Date | null | undefined;

export interface ExportColumn<K extends string = string> {
  key: K;
  header: string;
  /** Spreadsheet column width, in characters. */
  width?: number;
}

/** Who downloads: the rows obey the visibility rule (lib/visibility.ts) for this role. */
export interface ExportViewer {
  id: string;
  name: string;
  role: Role;
  /** The address the download came from (the access log's, modules/data-access). */
  ip?: string | null;
}

export interface ExportDefinition<K extends string = string> {
  /** The `{name}` of `/api/admin/exports/{name}.{csv|xlsx}`: lower-case words and dashes. */
  name: string;
  title: string;
  /** One sentence for the Reports tab: who reads it and which riders it holds. */
  description: string;
  columns: ReadonlyArray<ExportColumn<K>>;
  /** The rows of `edition`: a past one a staff read names (`?edition=`), or the current one when undefined. */
  rows(db: Db, viewer: ExportViewer, edition?: EditionRead): Promise<Array<Record<K, Cell>>>;
}

/** Keeps each entry's row keys tied to its columns while the list holds them all. */
export function defineExport<K extends string>(definition: ExportDefinition<K>): ExportDefinition {
  return definition as unknown as ExportDefinition;
}
