// The organisers' spreadsheets as data: each export is one entry (a name, a title, its
// columns and a query giving its rows); the route, the CSV and XLSX writers, the download
// log and the Reports tab's list all read this table. Adding an export is one entry file
// (in entries/, or beside the module that owns the data) and its line in EXPORTS below.

import { dnfExport, finishersExport } from './entries/course';
import { incidentsExport } from './entries/incidents';
import { insuranceBagani, insuranceLakambiniLakan } from './entries/insurance';
import { masterlistExport } from './entries/masterlist';
import { paymentsExport } from './entries/payments';
import { sizesExport } from './entries/sizes';
import type { ExportDefinition } from './export-definition';

/** Every export, in the order the Reports tab shows them. */
export const EXPORTS: readonly ExportDefinition[] = [
  masterlistExport,
  insuranceLakambiniLakan,
  insuranceBagani,
  sizesExport,
  paymentsExport,
  finishersExport,
  dnfExport,
  incidentsExport,
];

export function exportNamed(name: string): ExportDefinition | undefined {
  return EXPORTS.find((e) => e.name === name);
}
