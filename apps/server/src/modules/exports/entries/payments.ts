// The treasurer's ledger: one line per rider's registration payment (verifications; staff
// accounts carry one too, but pay nothing), with its method and amount, its state, and who
// verified it when (the verifying account as it is now; a deleted one leaves the column
// empty, its name stays in the verification history).
import { PAYMENT_METHOD_LABELS } from '@rally/shared/catalog/registration';
import { and, eq } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { entries } from '../../../db/schema/entries';
import { users } from '../../../db/schema/users';
import { inEdition } from '../../../lib/edition-of';
import { enteredRiderIn } from '../../../lib/riders';
import { fullName } from '../../../lib/sql-text';
import { visibleAccounts } from '../../../lib/visibility';
import { defineExport } from '../export-definition';
import { byRiderNumber, categoryCell } from './rider-cells';

const verifier = alias(users, 'verifier');

export const paymentsExport = defineExport({
  name: 'payments',
  title: 'Payment Ledger',
  description: 'Every registration payment: rider, method, amount, status, verified by and when.',
  columns: [
    { key: 'riderNumber', header: 'Rider #', width: 8 },
    { key: 'kitName', header: 'Kit Name', width: 22 },
    { key: 'rider', header: 'Rider', width: 24 },
    { key: 'category', header: 'Category', width: 14 },
    { key: 'verificationCode', header: 'Verification Code', width: 14 },
    { key: 'method', header: 'Method', width: 14 },
    { key: 'amount', header: 'Amount (PHP)', width: 12 },
    { key: 'status', header: 'Status', width: 10 },
    { key: 'verifiedBy', header: 'Verified By', width: 22 },
    { key: 'verifiedAt', header: 'Verified (Manila)', width: 18 },
    { key: 'registeredAt', header: 'Registered (Manila)', width: 18 },
  ],
  async rows(db, viewer, edition) {
    const rows = await db
      .select({
        riderNumber: entries.riderNumber,
        kitName: users.kitName,
        firstName: users.firstName,
        lastName: users.lastName,
        category: entries.category,
        verificationCode: entries.verificationCode,
        method: entries.paymentMethod,
        amount: entries.paymentAmount,
        status: entries.status,
        verifierFirst: verifier.firstName,
        verifierLast: verifier.lastName,
        verifiedAt: entries.verifiedAt,
        registeredAt: entries.createdAt,
      })
      .from(entries)
      .innerJoin(users, eq(users.id, entries.userId))
      .leftJoin(verifier, eq(verifier.id, entries.verifiedBy))
      .where(
        and(inEdition(entries.editionId, edition), enteredRiderIn(edition), visibleAccounts(viewer.role, users.role)),
      )
      .orderBy(...byRiderNumber);
    return rows.map((r) => ({
      riderNumber: r.riderNumber,
      kitName: r.kitName,
      rider: fullName(r.firstName, r.lastName),
      category: categoryCell(r.category),
      verificationCode: r.verificationCode,
      method: r.method ? (PAYMENT_METHOD_LABELS[r.method as keyof typeof PAYMENT_METHOD_LABELS] ?? r.method) : '',
      amount: r.amount === null ? null : Number(r.amount),
      status: r.status,
      verifiedBy: r.status === 'verified' && r.verifierFirst !== null ? fullName(r.verifierFirst, r.verifierLast) : '',
      verifiedAt: r.status === 'verified' ? r.verifiedAt : null,
      registeredAt: r.registeredAt,
    }));
  },
});
