// The insurers' lists (EVENT.insurers): one insurer covers Lakambini, Magani and Lakan,
// the other Bagani; each `-obr` category goes with its base. Only verified riders ride,
// so only they are insured. Each insurer reads who the rider is and whom to call.
import { type BaseCategory, baseCategoryOf, CATEGORIES, type Category } from '@rally/shared/catalog/registration';
import { and, inArray } from 'drizzle-orm';
import { entries } from '../../../db/schema/entries';
import { users } from '../../../db/schema/users';
import { entryIn, isVerifiedRider } from '../../../lib/riders';
import { visibleAccounts } from '../../../lib/visibility';
import { defineExport } from '../export-definition';
import { byRiderNumber, categoryCell, genderCell } from './rider-cells';

/** The categories whose base is one of these, `-obr` variants included. */
export function categoriesOf(bases: readonly BaseCategory[]): Category[] {
  return CATEGORIES.filter((c) => {
    const base = baseCategoryOf(c);
    return base !== null && bases.includes(base);
  });
}

function insuranceExport(name: string, riders: string, bases: readonly BaseCategory[]) {
  const categories = categoriesOf(bases);
  return defineExport({
    name,
    title: `Insurance: ${riders}`,
    description: `Verified ${riders} riders, OBR included, with birthdate, gender, address and emergency contact.`,
    columns: [
      { key: 'riderNumber', header: 'Rider #', width: 8 },
      { key: 'lastName', header: 'Last Name', width: 16 },
      { key: 'firstName', header: 'First Name', width: 16 },
      { key: 'kitName', header: 'Kit Name', width: 22 },
      { key: 'category', header: 'Category', width: 14 },
      { key: 'birthdate', header: 'Birthdate', width: 12 },
      { key: 'gender', header: 'Gender', width: 8 },
      { key: 'address', header: 'Address', width: 30 },
      { key: 'phone', header: 'Phone', width: 16 },
      { key: 'emergencyName', header: 'Emergency Contact', width: 22 },
      { key: 'emergencyNumber', header: 'Emergency Number', width: 16 },
    ],
    async rows(db, viewer, edition) {
      const rows = await db
        .select({
          // Not a column: whose row it is, for the access log (modules/data-access).
          riderId: users.id,
          riderNumber: entries.riderNumber,
          firstName: users.firstName,
          lastName: users.lastName,
          kitName: users.kitName,
          category: entries.category,
          birthdate: users.birthdate,
          gender: users.gender,
          address: users.address,
          phone: users.phoneNumber,
          emergencyName: users.emergencyContactName,
          emergencyNumber: users.emergencyContactNumber,
        })
        .from(users)
        .innerJoin(entries, entryIn(edition))
        .where(and(isVerifiedRider, inArray(entries.category, categories), visibleAccounts(viewer.role, users.role)))
        .orderBy(...byRiderNumber);
      return rows.map((r) => ({ ...r, category: categoryCell(r.category), gender: genderCell(r.gender) }));
    },
  });
}

export const insuranceLakambiniLakan = insuranceExport('insurance-lakambini-lakan', 'Lakambini, Magani and Lakan', [
  'lakambini',
  'magani',
  'lakan',
]);
export const insuranceBagani = insuranceExport('insurance-bagani', 'Bagani', ['bagani']);
