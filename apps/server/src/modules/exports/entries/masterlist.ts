// The Participant Masterlist as a spreadsheet: the console's masterlist population
// (riders and anyone holding a rider number, as far as the viewer may see them), every
// registration field staff use, verified or not.
import { PAYMENT_METHOD_LABELS } from '@rally/shared/catalog/registration';
import { entries } from '../../../db/schema/entries';
import { users } from '../../../db/schema/users';
import { entryIn } from '../../../lib/riders';
import { adminUserColumns } from '../../users/users.presenter';
import { masterlistPopulation } from '../../users/users.queries';
import { defineExport } from '../export-definition';
import { byRiderNumber, categoryCell, genderCell, routeCell, sizeCell } from './rider-cells';

export const masterlistExport = defineExport({
  name: 'masterlist',
  title: 'Participant Masterlist',
  description: 'Every registered rider with contact, category, payment status, sizes and kit status.',
  columns: [
    { key: 'riderNumber', header: 'Rider #', width: 8 },
    { key: 'kitName', header: 'Kit Name', width: 22 },
    { key: 'firstName', header: 'First Name', width: 16 },
    { key: 'lastName', header: 'Last Name', width: 16 },
    { key: 'category', header: 'Category', width: 14 },
    { key: 'route', header: 'Route', width: 16 },
    { key: 'verification', header: 'Verification', width: 12 },
    { key: 'payment', header: 'Payment', width: 16 },
    { key: 'paymentMethod', header: 'Payment Method', width: 14 },
    { key: 'paymentAmount', header: 'Amount (PHP)', width: 12 },
    { key: 'email', header: 'Email', width: 28 },
    { key: 'phone', header: 'Phone', width: 16 },
    { key: 'gender', header: 'Gender', width: 8 },
    { key: 'birthdate', header: 'Birthdate', width: 12 },
    { key: 'address', header: 'Address', width: 28 },
    { key: 'club', header: 'Team / Club', width: 20 },
    { key: 'motorcycle', header: 'Motorcycle', width: 18 },
    { key: 'emergencyName', header: 'Emergency Contact', width: 20 },
    { key: 'emergencyNumber', header: 'Emergency Number', width: 16 },
    { key: 'tshirt', header: 'T-shirt', width: 10 },
    { key: 'finisherSleeve', header: 'Finisher Sleeve', width: 14 },
    { key: 'vest', header: 'Vest', width: 10 },
    { key: 'bikeCheck', header: 'Bike Check', width: 12 },
    { key: 'riderKit', header: 'Rider Kit', width: 12 },
    { key: 'registeredAt', header: 'Registered (Manila)', width: 18 },
  ],
  async rows(db, viewer, edition) {
    const rows = await db
      .select(adminUserColumns)
      .from(users)
      .leftJoin(entries, entryIn(edition))
      .where(masterlistPopulation(viewer.role, edition))
      .orderBy(...byRiderNumber);
    return rows.map(({ user: u, verificationStatus, hasPaymentReceipt }) => ({
      // Not a column: whose row it is, for the access log (modules/data-access).
      riderId: u.id,
      riderNumber: u.riderNumber,
      kitName: u.kitName,
      firstName: u.firstName,
      lastName: u.lastName,
      category: categoryCell(u.category),
      route: routeCell(u.category),
      verification: verificationStatus ?? '',
      payment: hasPaymentReceipt ? 'Receipt Uploaded' : 'No Receipt',
      paymentMethod: u.paymentMethod ? PAYMENT_METHOD_LABELS[u.paymentMethod] : '',
      paymentAmount: u.paymentAmount,
      email: u.email,
      phone: u.phoneNumber,
      gender: genderCell(u.gender),
      birthdate: u.birthdate,
      address: u.address,
      club: u.clubName,
      motorcycle: u.motorcycleModel,
      emergencyName: u.emergencyContactName,
      emergencyNumber: u.emergencyContactNumber,
      tshirt: sizeCell(u.tshirtSize, u.customTshirtSize),
      finisherSleeve: sizeCell(u.finisherSleeveSize, u.customFinisherSleeveSize),
      vest: sizeCell(u.vestSize, u.customVestSize),
      bikeCheck: u.bikeCheckStatus,
      riderKit: u.riderKitStatus,
      registeredAt: u.createdAt,
    }));
  },
});
