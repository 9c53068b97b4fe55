// The console's search by reference number: typed as printed ("1001 543 610110"), with
// dashes or as bare digits, it finds the rider whose receipt (current or earlier) bears it.
import { referenceDigits } from '@rally/shared/catalog/receipts';
import { type AnyColumn, type SQL, sql } from 'drizzle-orm';
import { files } from '../../db/schema/files';
import { receiptReadings } from '../../db/schema/receipts';

/** Fewer digits than this would match half the receipts: it is a name or a code, not a reference. */
const MIN_REFERENCE_DIGITS = 6;

/** A condition on a user id column: one of their receipts' references contains the digits searched; undefined when the search is not a reference. */
export function referenceMatches(userId: AnyColumn, search: string): SQL | undefined {
  if (!/^[\d\s-]+$/.test(search.trim())) return undefined;
  const digits = referenceDigits(search);
  if (digits.length < MIN_REFERENCE_DIGITS) return undefined;
  return sql`exists(select 1 from ${files} join ${receiptReadings} on ${receiptReadings.fileId} = ${files.id}
    where ${files.userId} = ${userId} and ${files.kind} = 'payment_receipt'
      and ${receiptReadings.referenceNumber} like ${`%${digits}%`})`;
}
