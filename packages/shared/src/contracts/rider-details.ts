// A rider's emergency contact: the number marshals and the SOS desk dial when the rider
// cannot answer. Riders type Philippine mobile numbers both ways (09… and +639…), often
// with spaces or dashes; both are accepted and compared in one canonical form.
import { z } from 'zod';
import { TEXT_LIMITS } from './common';

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
