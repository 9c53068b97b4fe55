// Reads a transaction history into a table of header → cell: a CSV (as GCash and banks
// export it: maybe a BOM, `,` or `;`, quoted fields) or a PDF with a text layer (GCash's
// emailed statement), whose cells are placed under the header they sit beneath.
import { BadRequestError } from '../../lib/errors';
import { linesOf, type PdfTextItem, pdfTextItems } from '../receipts/pdf-text';

export interface StatementTable {
  headers: string[];
  /** Each data row with its line (1 = the first data row). */
  rows: Array<{ line: number; cells: Record<string, string> }>;
}

const MAX_ROWS = 20_000;

const badFile = (message: string) => new BadRequestError(message, 'BAD_STATEMENT');

/** RFC 4180 with the delimiter given: quotes, doubled quotes, newlines inside quotes. */
function parseCsvRecords(text: string, delimiter: string): string[][] {
  const records: string[][] = [];
  let field = '';
  let record: string[] = [];
  let quoted = false;
  let i = 0;
  while (i < text.length) {
    const c = text[i] as string;
    if (quoted) {
      if (c === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i += 2;
          continue;
        }
        quoted = false;
      } else field += c;
      i++;
      continue;
    }
    if (c === '"' && field.trim() === '') {
      quoted = true;
      field = '';
    } else if (c === delimiter) {
      record.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      if (c === '\r' && text[i + 1] === '\n') i++;
    } else field += c;
    i++;
  }
  if (quoted) throw badFile('The CSV ends inside a quoted field; is the file complete?');
  if (field !== '' || record.length > 0) {
    record.push(field);
    records.push(record);
  }
  return records.filter((r) => r.some((cell) => cell.trim() !== ''));
}

/**
 * The delimiter: whichever of `,` `;` and tab splits some line of the first ten most, outside
 * quotes (the first line may be a title with none).
 */
function guessDelimiter(head: string[]): string {
  let best = ',';
  let most = 0;
  for (const d of [',', ';', '\t']) {
    for (const line of head) {
      const n = line.replace(/"[^"]*"/g, '').split(d).length - 1;
      if (n > most) [best, most] = [d, n];
    }
  }
  return best;
}

export function csvTable(bytes: Buffer): StatementTable {
  if (bytes.includes(0)) throw badFile('The file is not a CSV text file (it holds binary data)');
  let text = bytes.toString('utf8');
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  const records = parseCsvRecords(text, guessDelimiter(text.split(/\r?\n/, 10)));
  return tableOf(records);
}

/**
 * The header is the first record with at least three non-empty cells (exports often open
 * with a title line or an account number); every later record is a row under it.
 */
function tableOf(records: string[][]): StatementTable {
  const headerAt = records.findIndex((r) => r.filter((c) => c.trim() !== '').length >= 3);
  if (headerAt < 0) throw badFile('No header row was found: the file needs a line of column names');
  const headers = (records[headerAt] as string[]).map((h) => h.trim());
  const data = records.slice(headerAt + 1);
  if (data.length === 0) throw badFile('The statement has a header but no rows');
  if (data.length > MAX_ROWS) throw badFile(`The statement has more than ${MAX_ROWS} rows; split it`);
  return {
    headers,
    rows: data.map((r, i) => ({
      line: i + 1,
      cells: Object.fromEntries(headers.map((h, c) => [h, (r[c] ?? '').trim()])),
    })),
  };
}

/**
 * A statement PDF as a table: the first line naming a reference column is the header, its
 * cells' positions the columns; each later line's items go under the column they start in
 * (a cell starts at or a little left of its header, as right-aligned amounts do).
 */
export async function pdfTable(bytes: Buffer): Promise<StatementTable> {
  const pages = await pdfTextItems(bytes);
  if (!pages) throw badFile('The PDF has no text to read (a scan or a photo); upload the CSV export instead');
  let columns: PdfTextItem[] | null = null;
  const records: string[][] = [];
  for (const page of pages) {
    for (const line of linesOf(page)) {
      if (line.some((i) => /reference/i.test(i.str)) && line.length >= 3) {
        if (!columns) {
          columns = line;
          records.push(line.map((i) => i.str));
        }
        continue; // a header repeated on the next page
      }
      if (!columns) continue;
      const cells = columns.map(() => '');
      for (const item of line) {
        let at = 0;
        for (let c = 0; c < columns.length; c++) if ((columns[c] as PdfTextItem).x - 40 <= item.x) at = c;
        cells[at] = cells[at] ? `${cells[at]} ${item.str}` : item.str;
      }
      records.push(cells);
    }
  }
  if (!columns) throw badFile('No header row naming a reference column was found in the PDF');
  return tableOf(records);
}
