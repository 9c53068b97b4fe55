// A rider's emergency contact: the number marshals and the SOS desk dial when the rider
// cannot answer. Riders type Philippine mobile numbers both ways (09… and +639…), often
// with spaces or dashes; both are accepted and compared in one canonical form. The rider
// keeps the contact, and their own medical notes, up to date from My Profile.
import { z } from 'zod';
import { TEXT_LIMITS } from './common';
import { bloodTypeField, medicalText } from './id-cards';
import { clearableText } from './users';

/** 09XX XXX XXXX or +63 9XX XXX XXXX, with optional spaces, dashes or dots between digits. */
const PH_MOBILE = /^(?:\+?63|0)9\d{9}$/;

/** The number without separators: 09171234567 and +63 917-123-4567 both give +639171234567. */
export function canonicalPhilippineMobile(value: string): string | null {
  const compact = value.trim().replace(/[\s.\-()]/g, '');
  if (!PH_MOBILE.test(compact)) return null;
  return `+63${compact.slice(compact.indexOf('9'))}`;
}

export const PH_MOBILE_MESSAGE = 'Enter a Philippine mobile number (09XX XXX XXXX or +639XX XXX XXXX).';

/** A Philippine mobile number as a form or an API receives it; kept as the rider typed it. */
export const philippineMobile = (field: string) =>
  z
    .string({ message: `${field} must be text` })
    .trim()
    .max(TEXT_LIMITS.emergencyContactNumber, {
      message: `${field} must be at most ${TEXT_LIMITS.emergencyContactNumber} characters`,
    })
    .refine((v) => canonicalPhilippineMobile(v) !== null, { message: PH_MOBILE_MESSAGE });

/**
 * PATCH /my/details: the rider's own contact, emergency contact and medical notes. Only
 * sent fields change. Phone, address and the medical notes may be cleared (blank or null);
 * the emergency contact may be changed but not removed, since marshals dial it when the
 * rider cannot answer. Unknown fields are refused rather than silently ignored.
 */
export const myDetailsBody = z
  .strictObject(
    {
      phoneNumber: clearableText('Phone number', TEXT_LIMITS.phoneNumber),
      address: clearableText('Address', TEXT_LIMITS.address),
      emergencyContactName: z
        .string({ message: 'Emergency contact name is required' })
        .trim()
        .min(1, { message: 'Emergency contact name is required' })
        .max(TEXT_LIMITS.emergencyContactName, {
          message: `Emergency contact name must be at most ${TEXT_LIMITS.emergencyContactName} characters`,
        })
        .optional(),
      emergencyContactNumber: philippineMobile('Emergency contact number').optional(),
      bloodType: bloodTypeField('Blood type'),
      allergies: medicalText('Allergies'),
      medicalConditions: medicalText('Medical conditions'),
    },
    { error: (issue) => (issue.code === 'unrecognized_keys' ? `Unknown field: ${issue.keys.join(', ')}` : undefined) },
  )
  .refine((b) => Object.values(b).some((v) => v !== undefined), { message: 'Nothing to update' });
export type MyDetailsBody = z.infer<typeof myDetailsBody>;
