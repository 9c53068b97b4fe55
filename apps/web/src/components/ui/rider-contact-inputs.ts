// The inputs of a rider's contact details, the same wherever they are edited: the rider's own
// My Details form and the console's Edit Warrior. Labels, keyboards and limits (the contract's
// TEXT_LIMITS) live here once; what differs by screen stays with the screen: the console's
// spec calls the address "Location", and only the rider's own form offers the browser's
// autofill (a staff member's own phone number is not the rider's).
import { TEXT_LIMITS } from '@rally/shared/contracts/common';
import type { TextFieldProps } from './text-field';

type InputOf = Pick<TextFieldProps, 'label' | 'type' | 'inputMode' | 'maxLength' | 'placeholder'>;

export const RIDER_CONTACT_INPUTS = {
  phoneNumber: { label: 'Phone Number', type: 'tel', inputMode: 'tel', maxLength: TEXT_LIMITS.phoneNumber },
  address: { label: 'Address', maxLength: TEXT_LIMITS.address },
  emergencyContactName: { label: 'Emergency Contact Name', maxLength: TEXT_LIMITS.emergencyContactName },
  emergencyContactNumber: {
    label: 'Emergency Contact Number',
    type: 'tel',
    inputMode: 'tel',
    placeholder: '09XX XXX XXXX',
    maxLength: TEXT_LIMITS.emergencyContactNumber,
  },
} as const satisfies Record<string, InputOf>;
