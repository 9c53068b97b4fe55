// Payment statements (DESIGN.md §13): the organiser's GCash or bank transaction history,
// stored per edition as the rows money came in on, and matched to the edition's receipts by
// reference number AND amount when read, so a receipt read or typed later matches too.
import type { StatementPreset } from '@rally/shared/catalog/receipts';
import type { StatementDetail, StatementRow, StatementSummary } from '@rally/shared/contracts/receipts';
import { desc, eq, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client';
import { paymentStatementRows, paymentStatements } from '../../db/schema/receipts';
import type { Actor } from '../../lib/actor';
import { type EditionRead, editionSql } from '../../lib/edition-of';
import { BadRequestError, NotFoundError } from '../../lib/errors';
import { fullName, isoOrNull, rowsOf } from '../../lib/sql-text';
import { recordActivity } from '../activities/activities.service';
import { currentEdition } from '../editions/editions.service';
import { isPdf } from '../receipts/pdf-text';
import { columnsFor, parseMapping, statementRows } from './statement-rows';
import { csvTable, pdfTable } from './statement-table';

const INSERT_BATCH = 1000;

/**
 * The receipts a statement row can match: receipt files (superseded ones too) of `edition`
 * (the current one when undefined), i.e. stored after the edition before it closed and
 * before it closed itself (the current edition is still open).
 */
function editionReceipts(edition?: EditionRead) {
  const close = sql`(select coalesce(c.closed_at, 'infinity'::timestamptz) from editions c where c.id = ${editionSql(edition)})`;
  return sql`select f.id as file_id, f.user_id, r.reference_number, r.amount_centavos
  from receipt_readings r join files f on f.id = r.file_id
  where f.kind = 'payment_receipt'
    and f.created_at < ${close}
    and f.created_at >= coalesce((select max(p.closed_at) from editions p where p.closed_at < ${close}), '-infinity'::timestamptz)`;
}

export interface StatementUpload {
  preset: StatementPreset;
  mapping?: string;
  file: { buffer: Buffer; filename: string };
}

/** Reads, checks and stores a statement; a file that cannot be read stores nothing. */
export async function uploadStatement(db: Db, actor: Actor, upload: StatementUpload): Promise<StatementDetail> {
  const mapping = parseMapping(upload.mapping);
  const { buffer } = upload.file;
  if (buffer.length === 0) throw new BadRequestError('The statement file is empty', 'BAD_STATEMENT');
  const table = isPdf(buffer) ? await pdfTable(buffer) : csvTable(buffer);
  const { columns, mapping: used } = columnsFor(table, upload.preset, mapping);
  const rows = statementRows(table, columns);
  if (rows.length === 0) {
    throw new BadRequestError(
      'No money received was found in the statement (no row with a credit or a positive amount)',
      'BAD_STATEMENT',
    );
  }
  const times = rows.map((r) => r.paidAt?.getTime()).filter((t): t is number => t !== undefined);
  const edition = await currentEdition(db);
  const id = await db.transaction(async (tx) => {
    const [statement] = await tx
      .insert(paymentStatements)
      .values({
        editionId: edition.id,
        preset: upload.preset,
        originalName: upload.file.filename.slice(0, 200) || null,
        mapping: used,
        rowCount: rows.length,
        coversFrom: times.length ? new Date(Math.min(...times)) : null,
        coversTo: times.length ? new Date(Math.max(...times)) : null,
        uploadedBy: actor.id,
      })
      .returning({ id: paymentStatements.id });
    if (!statement) throw new Error('statement insert returned no row');
    for (let i = 0; i < rows.length; i += INSERT_BATCH) {
      await tx
        .insert(paymentStatementRows)
        .values(rows.slice(i, i + INSERT_BATCH).map((r) => ({ ...r, statementId: statement.id })));
    }
    await recordActivity(tx, {
      type: 'statement_uploaded',
      actorId: actor.id,
      actorName: actor.name,
      description: `${actor.name} uploaded a ${upload.preset === 'custom' ? '' : `${upload.preset === 'gcash' ? 'GCash' : 'bank'} `}payment statement of ${rows.length} rows`,
      details: upload.file.filename || null,
      metadata: { statementId: statement.id, rows: rows.length, preset: upload.preset },
    });
    return statement.id;
  });
  return statementDetail(db, id);
}

interface MatchedRow {
  id: string;
  line: number;
  reference_number: string | null;
  amount_centavos: string | number | null;
  paid_at: string | Date | null;
  description: string | null;
  file_id: string | null;
  user_id: string | null;
  rider_number: number | null;
  first_name: string | null;
  last_name: string | null;
  kit_name: string | null;
}

/**
 * Each row of a statement with the first receipt matching its reference and amount, its
 * rider named with their number in `edition` (the current one when undefined).
 */
async function matchedRows(db: DbOrTx, statementId: string, edition?: EditionRead): Promise<StatementRow[]> {
  const result =
    await db.execute(sql`select s.id, s.line, s.reference_number, s.amount_centavos, s.paid_at, s.description,
      m.file_id, m.user_id, en.rider_number, u.first_name, u.last_name, u.kit_name
    from ${paymentStatementRows} s
    left join lateral (select e.file_id, e.user_id from (${editionReceipts(edition)}) e
      where e.reference_number = s.reference_number and e.amount_centavos = s.amount_centavos
      limit 1) m on true
    left join users u on u.id = m.user_id
    left join entries en on en.user_id = u.id and en.edition_id = ${editionSql(edition)}
    where s.statement_id = ${statementId}
    order by s.line`);
  return rowsOf<MatchedRow>(result).map((r) => ({
    id: r.id,
    line: Number(r.line),
    referenceNumber: r.reference_number,
    amount: r.amount_centavos === null ? null : Number(r.amount_centavos) / 100,
    paidAt: isoOrNull(r.paid_at),
    description: r.description,
    match:
      r.file_id && r.user_id
        ? {
            fileId: r.file_id,
            userId: r.user_id,
            riderNumber: r.rider_number,
            name: r.kit_name || fullName(r.first_name, r.last_name),
          }
        : null,
  }));
}

type StatementRowDb = typeof paymentStatements.$inferSelect;

function presentSummary(s: StatementRowDb, matchedCount: number): StatementSummary {
  return {
    id: s.id,
    preset: s.preset,
    originalName: s.originalName,
    rowCount: s.rowCount,
    matchedCount,
    coversFrom: isoOrNull(s.coversFrom),
    coversTo: isoOrNull(s.coversTo),
    createdAt: s.createdAt.toISOString(),
  };
}

/** A statement's rows, matched or not; riders are numbered as in `edition` (the current one when undefined). */
export async function statementDetail(db: DbOrTx, id: string, edition?: EditionRead): Promise<StatementDetail> {
  const [statement] = await db.select().from(paymentStatements).where(eq(paymentStatements.id, id)).limit(1);
  if (!statement) throw new NotFoundError('Payment statement not found', 'STATEMENT_NOT_FOUND');
  const rows = await matchedRows(db, id, edition);
  const matched = rows.filter((r) => r.match);
  return {
    ...presentSummary(statement, matched.length),
    matched,
    unmatched: rows.filter((r) => !r.match),
  };
}

/**
 * The statements of `edition` (the current one when undefined), newest first, each with how
 * many of its rows matched a receipt.
 */
export async function listStatements(db: DbOrTx, edition?: EditionRead): Promise<StatementSummary[]> {
  const { id: editionId } = await currentEdition(db, edition);
  const rows = await db
    .select({
      s: paymentStatements,
      matched: sql<number>`(select count(*) from ${paymentStatementRows} s
        where s.statement_id = ${sql.raw('"payment_statements"."id"')}
          and exists(select 1 from (${editionReceipts(edition)}) e
            where e.reference_number = s.reference_number and e.amount_centavos = s.amount_centavos))`.mapWith(Number),
    })
    .from(paymentStatements)
    .where(eq(paymentStatements.editionId, editionId))
    .orderBy(desc(paymentStatements.createdAt), desc(paymentStatements.id));
  return rows.map((r) => presentSummary(r.s, r.matched));
}
