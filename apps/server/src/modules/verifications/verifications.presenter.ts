import { type Category, type Prices, paymentAmountFor } from '@rally/shared/catalog/registration';
import type { ReceiptCheck } from '@rally/shared/contracts/receipts';
import type { HistoryEntry, PendingVerification } from '@rally/shared/contracts/verifications';
import type { verificationHistory } from '../../db/schema/entries';
import { displayName } from '../../lib/sql-text';

export interface PendingRow {
  id: string;
  userId: string;
  kitName: string | null;
  firstName: string;
  lastName: string;
  email: string;
  code: string;
  paymentMethod: PendingVerification['payment_method'];
  paymentAmount: number | null;
  hasReceipt: boolean;
  createdAt: Date;
  category: Category | null;
  riderNumber: number | null;
  previousNotes: string | null;
  previousReceipts: PreviousReceipt[];
}

/** A superseded receipt as Postgres' json_agg gives it (timestamps as text). */
export interface PreviousReceipt {
  id: string;
  mime_type: string;
  superseded_at: string;
}

export function presentPending(r: PendingRow, prices: Prices, receiptCheck: ReceiptCheck | null): PendingVerification {
  return {
    id: r.id,
    user_id: r.userId,
    kit_name: r.kitName,
    first_name: r.firstName,
    last_name: r.lastName,
    full_name: displayName(r),
    email: r.email,
    verification_code: r.code,
    payment_method: r.paymentMethod,
    payment_amount: r.paymentAmount,
    has_payment_receipt: !!r.hasReceipt,
    created_at: r.createdAt.toISOString(),
    category: r.category,
    rider_number: r.riderNumber,
    expected_amount: r.category ? paymentAmountFor(r.category, prices) : null,
    previous_notes: r.previousNotes,
    previous_receipts: r.previousReceipts.map((p) => ({
      id: p.id,
      mime_type: p.mime_type,
      superseded_at: new Date(p.superseded_at).toISOString(),
    })),
    receipt_check: receiptCheck,
  };
}

export function presentHistoryEntry(h: typeof verificationHistory.$inferSelect): HistoryEntry {
  return {
    id: h.id,
    action: h.action,
    user_first_name: h.userFirstName,
    user_last_name: h.userLastName,
    kit_name: h.kitName,
    verification_code: h.verificationCode,
    verified_at: h.createdAt.toISOString(),
    admin_first_name: h.adminFirstName,
    admin_last_name: h.adminLastName,
    notes: h.notes,
  };
}
