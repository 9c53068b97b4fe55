import type { IdCardDetail, IdCardUser } from '@rally/shared/contracts/id-cards';
import { isoOrNull } from '../../lib/sql-text';
import type { CardDetailRow, CardRow } from './id-cards.service';

export function presentCard(row: CardRow): IdCardUser {
  const count = Number(row.printCount ?? 0);
  return {
    id: row.id,
    first_name: row.firstName,
    last_name: row.lastName,
    kit_name: row.kitName,
    email: row.email,
    phone_number: row.phoneNumber,
    category: row.category,
    rider_number: row.riderNumber,
    is_printed: count > 0,
    print_count: count,
    printed_at: isoOrNull(row.printedAt),
  };
}

export function presentCardDetail(row: CardDetailRow): IdCardDetail {
  return {
    ...presentCard(row),
    rider_code: row.riderCode,
    motorcycle_model: row.motorcycleModel,
    emergency_contact_name: row.emergencyContactName,
    emergency_contact_number: row.emergencyContactNumber,
    blood_type: row.bloodType,
    allergies: row.allergies,
    medical_conditions: row.medicalConditions,
  };
}
