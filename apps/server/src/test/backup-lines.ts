// A backup's lines (modules/operator/backup.ts), read and written back, for the upgrade tests
// that turn today's backup into one an older install would have made.
import { readFileSync, writeFileSync } from 'node:fs';
import { gunzipSync, gzipSync } from 'node:zlib';

export type Line = Record<string, unknown>;

export function readBackupLines(file: string): Line[] {
  return gunzipSync(readFileSync(file))
    .toString('utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Line);
}

/**
 * Writes `lines` (header, each table's block, the end marker) to `file`, the blocks in
 * `order`: the foreign-key order of the level the backup is for (a restore writes tables in
 * file order, and an older level's keys may order them differently from today's).
 */
export function writeBackupLines(file: string, lines: Line[], order: string[]): void {
  const blocks = new Map<string, Line[]>();
  let block: Line[] = [];
  for (const line of lines.slice(1, -1)) {
    if (typeof line.table === 'string') {
      block = [];
      blocks.set(line.table, block);
    }
    block.push(line);
  }
  const named = ((lines[0]?.tables ?? []) as string[]).filter((t) => blocks.has(t));
  const tables = order.filter((t) => named.includes(t));
  const out = [{ ...lines[0], tables }, ...tables.flatMap((t) => blocks.get(t) ?? []), lines.at(-1) as Line];
  writeFileSync(file, gzipSync(`${out.map((l) => JSON.stringify(l)).join('\n')}\n`));
}
