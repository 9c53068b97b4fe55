// The two file formats of an export. CSV follows RFC 4180 (CRLF lines, fields quoted when
// they hold a quote, comma or line break, quotes doubled) and starts with a UTF-8 BOM so
// Excel reads names with ñ right; XLSX is written by exceljs, loaded with the first
// download (like pdf-lib with the first PDF receipt), with a bold frozen header row.
//
// Formula injection: a rider types their own kit name, club and address, and a
// spreadsheet runs a cell starting with = + - @ (or a tab or carriage return before one)
// as a formula. Every text cell starting so gets a leading apostrophe, in both formats,
// so it opens as the text the rider typed. Numbers are written as numbers and stay so.

import { rallyWallClock } from '@rally/shared/catalog/event-day';
import type { ExportFormat } from '@rally/shared/contracts/exports';
import type { Cell, ExportColumn } from './export-definition';

const FORMULA_START = /^[=+\-@\t\r]/;

export function neutralise(text: string): string {
  return FORMULA_START.test(text) ? `'${text}` : text;
}

/** A moment's wall-clock reading in Manila, as the numbers of a UTC date (for XLSX) and text (for CSV). */
function manila(at: Date): { text: string; wallClock: Date } {
  const p = rallyWallClock(at);
  const text = `${p.year}-${p.month}-${p.day} ${p.hour}:${p.minute}`;
  return {
    text,
    wallClock: new Date(Date.UTC(Number(p.year), Number(p.month) - 1, Number(p.day), Number(p.hour), Number(p.minute))),
  };
}

/** Today's date in Manila, for file names: `masterlist-2026-11-25.csv`. */
export function manilaDate(at: Date = new Date()): string {
  return manila(at).text.slice(0, 10);
}

function csvField(cell: Cell): string {
  if (cell === null || cell === undefined) return '';
  if (typeof cell === 'number') return Number.isFinite(cell) ? String(cell) : '';
  const text = cell instanceof Date ? manila(cell).text : neutralise(cell);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export function toCsv(columns: readonly ExportColumn[], rows: ReadonlyArray<Record<string, Cell>>): Buffer {
  const lines = [
    columns.map((c) => csvField(c.header)).join(','),
    ...rows.map((row) => columns.map((c) => csvField(row[c.key])).join(',')),
  ];
  return Buffer.from(`\uFEFF${lines.join('\r\n')}\r\n`, 'utf8');
}

let excelLoaded: Promise<typeof import('exceljs')> | undefined;
function loadExcel(): Promise<typeof import('exceljs')> {
  // exceljs is CommonJS: its classes sit on the default export under Node's ESM loader.
  excelLoaded ??= import('exceljs').then((m) => (m as { default?: typeof import('exceljs') }).default ?? m);
  return excelLoaded;
}

export async function toXlsx(
  title: string,
  columns: readonly ExportColumn[],
  rows: ReadonlyArray<Record<string, Cell>>,
  now: Date = new Date(),
): Promise<Buffer> {
  const Excel = await loadExcel();
  const workbook = new Excel.Workbook();
  workbook.creator = 'Mindanao Warriors Rally';
  workbook.created = now;
  // A sheet name is at most 31 characters and may not hold : \ / ? * [ ].
  const sheet = workbook.addWorksheet(title.replace(/[:\\/?*[\]]/g, ' ').slice(0, 31), {
    views: [{ state: 'frozen', ySplit: 1 }],
  });
  sheet.columns = columns.map((c) => ({ header: neutralise(c.header), key: c.key, width: c.width ?? 14 }));
  sheet.getRow(1).font = { bold: true };
  for (const row of rows) {
    const values: Record<string, string | number | Date | null> = {};
    for (const c of columns) {
      const cell = row[c.key];
      values[c.key] =
        cell === null || cell === undefined
          ? null
          : cell instanceof Date
            ? manila(cell).wallClock
            : typeof cell === 'number'
              ? cell
              : neutralise(cell);
    }
    const added = sheet.addRow(values);
    columns.forEach((c, i) => {
      if (row[c.key] instanceof Date) added.getCell(i + 1).numFmt = 'yyyy-mm-dd hh:mm';
    });
  }
  return Buffer.from(await workbook.xlsx.writeBuffer());
}

export async function writeExport(
  format: ExportFormat,
  title: string,
  columns: readonly ExportColumn[],
  rows: ReadonlyArray<Record<string, Cell>>,
): Promise<Buffer> {
  return format === 'csv' ? toCsv(columns, rows) : toXlsx(title, columns, rows);
}
