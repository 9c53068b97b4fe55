import type { KitParticipant } from '@rally/shared/contracts/kit-tracking';
import { fullName, isoOrNull } from '../../lib/sql-text';
import type { ParticipantRow } from './kit-tracking.service';

export function presentParticipant(row: ParticipantRow): KitParticipant {
  const verifiedBy = fullName(row.verifierFirstName, row.verifierLastName);
  return {
    user_id: row.userId,
    kit_name: row.kitName,
    participant_name: fullName(row.firstName, row.lastName),
    email: row.email,
    phone_number: row.phoneNumber,
    rider_number: row.riderNumber,
    category: row.category,
    payment_amount: row.paymentAmount === null ? null : Number(row.paymentAmount),
    club_name: row.clubName,
    sizes: {
      tshirt: row.tshirtSize,
      vest: row.vestSize,
      finisher_sleeve: row.finisherSleeveSize,
      custom_tshirt: row.customTshirtSize,
      custom_vest: row.customVestSize,
      custom_finisher_sleeve: row.customFinisherSleeveSize,
    },
    tshirt_given: row.tshirtGiven ?? false,
    vest_given: row.vestGiven ?? false,
    finisher_sleeve_given: row.finisherSleeveGiven ?? false,
    tshirt_given_at: isoOrNull(row.tshirtGivenAt),
    vest_given_at: isoOrNull(row.vestGivenAt),
    finisher_sleeve_given_at: isoOrNull(row.finisherSleeveGivenAt),
    kit_notes: row.notes ?? null,
    kit_last_updated: isoOrNull(row.kitUpdatedAt),
    verification_date: isoOrNull(row.verifiedAt),
    verified_by: verifiedBy === '' ? null : verifiedBy,
  };
}
