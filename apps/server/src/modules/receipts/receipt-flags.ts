// The check of each verification's current receipt (DESIGN.md §13): its reading, the
// flags it raises with what each matched, and the statement row it matched. Set-based: a
// page of the pending list costs the same handful of queries whatever its length.
import { RALLY_TIME_ZONE } from '@rally/shared/catalog/event-day';
import { formatReference, SIMILAR_IMAGE_MAX_DISTANCE } from '@rally/shared/catalog/receipts';
import type { ReceiptCheck, ReceiptFlag } from '@rally/shared/contracts/receipts';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import type { EditionRow } from '../../db/schema/editions';
import { files } from '../../db/schema/files';
import { paymentStatementRows, paymentStatements, receiptReadings } from '../../db/schema/receipts';
import { receiptOfEdition } from '../../lib/edition-of';
import { fullName, rowsOf } from '../../lib/sql-text';
import { presentReading } from './receipt-reading.service';

/** Whose receipt is checked and what their entry owes (pesos; null without a category). */
export interface CheckSubject {
  userId: string;
  expectedAmount: number | null;
}

/** Another receipt a flag points at, with its rider and their verification. */
interface OtherReceipt {
  key: string;
  file_id: string;
  user_id: string;
  superseded: boolean;
  rider_number: number | null;
  first_name: string | null;
  last_name: string | null;
  kit_name: string | null;
  verification_status: string | null;
  verified_at: string | null;
  verification_created_at: string | null;
}

/** At most this many flags of one kind on a receipt: the desk needs the first few, not all. */
const MAX_MATCHES = 3;
const HEX64 = /^[0-9a-f]{16}$/;

const dayMonth = (d: Date | string) =>
  new Date(d).toLocaleDateString('en-GB', { day: 'numeric', month: 'long', timeZone: RALLY_TIME_ZONE });
const pesos = (amount: number) => `₱${amount.toLocaleString('en-US', { maximumFractionDigits: 2 })}`;

function riderLabel(o: OtherReceipt): string {
  if (o.rider_number !== null) return `#${String(o.rider_number).padStart(3, '0')}`;
  return o.kit_name || fullName(o.first_name, o.last_name) || 'another rider';
}

/** "#042's receipt, approved on 12 March" — whose receipt and where their verification stands. */
function whose(o: OtherReceipt): string {
  const receipt = `${riderLabel(o)}'s ${o.superseded ? 'earlier ' : ''}receipt`;
  if (o.verification_status === 'verified' && o.verified_at)
    return `${receipt}, approved on ${dayMonth(o.verified_at)}`;
  if (o.verification_status === 'rejected' && o.verified_at)
    return `${receipt}, rejected on ${dayMonth(o.verified_at)}`;
  if (o.verification_status === 'pending' && o.verification_created_at)
    return `${receipt}, pending since ${dayMonth(o.verification_created_at)}`;
  return receipt;
}

const matchedOf = (o: OtherReceipt): ReceiptFlag['matched'] => ({
  fileId: o.file_id,
  userId: o.user_id,
  riderNumber: o.rider_number,
  name: o.kit_name || fullName(o.first_name, o.last_name) || null,
  status: o.verification_status,
  statementId: null,
});

/** The columns naming another receipt's rider and verification (joined as f, u, v). */
const OTHER_COLUMNS = sql.raw(`f.id as file_id, f.user_id, f.superseded_at is not null as superseded,
  v.rider_number, u.first_name, u.last_name, u.kit_name, v.status::text as verification_status,
  v.verified_at, v.created_at as verification_created_at`);
// The other rider's entry in the edition checked: one row per receipt, the status
// the desk acts on and the number of that edition (a rider has one entry per edition).
const otherJoins = (editionId: string) =>
  sql`join users u on u.id = f.user_id left join entries v on v.user_id = f.user_id and v.edition_id = ${editionId}`;

function groupBy(rows: OtherReceipt[]): Map<string, OtherReceipt[]> {
  const out = new Map<string, OtherReceipt[]>();
  for (const r of rows) out.set(r.key, [...(out.get(r.key) ?? []), r]);
  return out;
}

/**
 * Checks each subject's receipt of `edition` (the current one, or a past one a staff read
 * names: the receipt as it stood then, checked against that edition's entries, statements
 * and window). Another rider's receipts count as matches in any edition, superseded ones
 * included; the subject's own earlier receipts never do (a rider who sends the same receipt
 * again after a rejection is not a duplicate of themselves).
 */
export async function receiptChecksFor(
  db: DbOrTx,
  edition: Pick<EditionRow, 'id' | 'registrationOpensAt' | 'registrationClosesAt'>,
  subjects: readonly CheckSubject[],
): Promise<Map<string, ReceiptCheck>> {
  const out = new Map<string, ReceiptCheck>();
  if (subjects.length === 0) return out;
  const expected = new Map(subjects.map((s) => [s.userId, s.expectedAmount]));
  const current = await db
    .select({
      fileId: files.id,
      userId: files.userId,
      sha256: files.sha256,
      phash: files.phash,
      status: files.status,
      reading: receiptReadings,
    })
    .from(files)
    .leftJoin(receiptReadings, eq(receiptReadings.fileId, files.id))
    .where(
      and(
        inArray(files.userId, [...expected.keys()]),
        eq(files.kind, 'payment_receipt'),
        receiptOfEdition(files, edition.id),
      ),
    );
  if (current.length === 0) return out;

  const references = [...new Set(current.map((c) => c.reading?.referenceNumber).filter((r): r is string => !!r))];
  const shas = [...new Set(current.map((c) => c.sha256))];
  const unreadable = current.filter(
    (c) => c.reading && c.reading.status !== 'pending' && !c.reading.referenceNumber && c.phash && HEX64.test(c.phash),
  );
  const json = (value: unknown) => JSON.stringify(value);

  const [byReference, bySha, bySimilar, statements, statementRows] = await Promise.all([
    references.length === 0
      ? []
      : db
          .execute(sql`select r.reference_number as key, ${OTHER_COLUMNS}
            from ${receiptReadings} r join ${files} f on f.id = r.file_id ${otherJoins(edition.id)}
            where r.reference_number in (select jsonb_array_elements_text(${json(references)}::jsonb))
            order by f.created_at`)
          .then((r) => rowsOf<OtherReceipt>(r)),
    db
      .execute(sql`select f.sha256 as key, ${OTHER_COLUMNS}
        from ${files} f ${otherJoins(edition.id)}
        where f.kind = 'payment_receipt' and f.sha256 in (select jsonb_array_elements_text(${json(shas)}::jsonb))
        order by f.created_at`)
      .then((r) => rowsOf<OtherReceipt>(r)),
    unreadable.length === 0
      ? []
      : db
          .execute(sql`select s.file_id::text as key, ${OTHER_COLUMNS}
            from jsonb_to_recordset(${json(unreadable.map((c) => ({ file_id: c.fileId, user_id: c.userId, phash: c.phash })))}::jsonb)
              as s(file_id uuid, user_id uuid, phash text)
            join ${files} f on f.kind = 'payment_receipt' and f.user_id <> s.user_id and f.phash ~ '^[0-9a-f]{16}$'
              and bit_count(('x' || f.phash)::bit(64) # ('x' || s.phash)::bit(64)) <= ${SIMILAR_IMAGE_MAX_DISTANCE}
            ${otherJoins(edition.id)}
            order by f.created_at`)
          .then((r) => rowsOf<OtherReceipt>(r)),
    db
      .select({
        id: paymentStatements.id,
        coversFrom: paymentStatements.coversFrom,
        coversTo: paymentStatements.coversTo,
      })
      .from(paymentStatements)
      .where(eq(paymentStatements.editionId, edition.id)),
    references.length === 0
      ? []
      : db
          .select({
            statementId: paymentStatementRows.statementId,
            line: paymentStatementRows.line,
            referenceNumber: paymentStatementRows.referenceNumber,
            amountCentavos: paymentStatementRows.amountCentavos,
            paidAt: paymentStatementRows.paidAt,
          })
          .from(paymentStatementRows)
          .innerJoin(paymentStatements, eq(paymentStatements.id, paymentStatementRows.statementId))
          .where(
            and(eq(paymentStatements.editionId, edition.id), inArray(paymentStatementRows.referenceNumber, references)),
          ),
  ]);
  const references_ = groupBy(byReference);
  const shas_ = groupBy(bySha);
  const similar = groupBy(bySimilar);

  for (const c of current) {
    const reading = c.reading;
    const flags: ReceiptFlag[] = [];
    const others = (rows: OtherReceipt[] | undefined) =>
      (rows ?? []).filter((o) => o.user_id !== c.userId).slice(0, MAX_MATCHES);
    const ref = reading?.referenceNumber ?? null;
    if (ref) {
      for (const o of others(references_.get(ref))) {
        flags.push({
          kind: 'duplicate_reference',
          message: `reference ${formatReference(ref)} is also on ${whose(o)}`,
          matched: matchedOf(o),
        });
      }
    }
    for (const o of others(shas_.get(c.sha256))) {
      flags.push({ kind: 'duplicate_file', message: `the same file was sent as ${whose(o)}`, matched: matchedOf(o) });
    }
    // Receipts of one app all look alike: a near-identical image only matters when the
    // reference, the real key, could not be read. The same file is flagged above already.
    const sameFile = new Set(others(shas_.get(c.sha256)).map((o) => o.file_id));
    for (const o of others(similar.get(c.fileId)).filter((o) => !sameFile.has(o.file_id))) {
      flags.push({
        kind: 'similar_image',
        message: `the image is nearly identical to ${whose(o)} (the reference could not be read)`,
        matched: matchedOf(o),
      });
    }
    const owed = expected.get(c.userId) ?? null;
    const amount = reading?.amountCentavos ?? null;
    if (owed !== null && amount !== null && amount !== Math.round(owed * 100)) {
      flags.push({
        kind: 'amount_mismatch',
        message: `the receipt shows ${pesos(amount / 100)}; this entry owes ${pesos(owed)}`,
        matched: null,
      });
    }
    const paidAt = reading?.paidAt ?? null;
    const { registrationOpensAt: opens, registrationClosesAt: closes } = edition;
    if (paidAt && opens && paidAt < opens) {
      flags.push({
        kind: 'date_outside_window',
        message: `paid on ${dayMonth(paidAt)}, before registration opened on ${dayMonth(opens)}`,
        matched: null,
      });
    } else if (paidAt && closes && paidAt > closes) {
      flags.push({
        kind: 'date_outside_window',
        message: `paid on ${dayMonth(paidAt)}, after registration closed on ${dayMonth(closes)}`,
        matched: null,
      });
    }
    const match =
      ref && amount !== null
        ? statementRows.find((r) => r.referenceNumber === ref && r.amountCentavos === amount)
        : undefined;
    if (ref && amount !== null && paidAt && !match) {
      const covering = statements.find(
        (s) => s.coversFrom && s.coversTo && s.coversFrom <= paidAt && paidAt <= s.coversTo,
      );
      if (covering) {
        flags.push({
          kind: 'not_in_statement',
          message: `no row of the statement covering ${dayMonth(covering.coversFrom as Date)}–${dayMonth(covering.coversTo as Date)} has reference ${formatReference(ref)} for ${pesos(amount / 100)}`,
          matched: {
            fileId: null,
            userId: null,
            riderNumber: null,
            name: null,
            status: null,
            statementId: covering.id,
          },
        });
      }
    }
    out.set(c.userId, {
      fileId: c.fileId,
      fileStatus: c.status,
      reading: presentReading(reading),
      flags,
      inStatement: match
        ? { statementId: match.statementId, line: match.line, paidAt: match.paidAt?.toISOString() ?? null }
        : null,
    });
  }
  return out;
}
