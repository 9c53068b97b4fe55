// The registration form's state and the multipart registration payload built from it.
import type { Gender } from '@rally/shared/catalog/accounts';
import {
  type Category,
  normaliseCategory,
  type PaymentMethod,
  PRICES,
  type Prices,
  paymentAmountFor,
  type Size,
} from '@rally/shared/catalog/registration';
import type { BLOOD_TYPES } from '@rally/shared/contracts/id-cards';

type BloodType = (typeof BLOOD_TYPES)[number];

export interface RegistrationFields {
  firstName: string;
  lastName: string;
  kitName: string;
  email: string;
  password: string;
  confirmPassword: string;
  phoneNumber: string;
  address: string;
  gender: Gender | '';
  birthdate: string;
  riderNumber: number | null;
  tshirtSize: Size | '';
  customTshirtSize: string;
  finisherSleeveSize: Size | '';
  customFinisherSleeveSize: string;
  vestSize: Size | '';
  customVestSize: string;
  emergencyContactName: string;
  emergencyContactNumber: string;
  bloodType: BloodType | '';
  allergies: string;
  medicalConditions: string;
  motorcycleModel: string;
  clubName: string;
  category: Category | '';
  paymentMethod: PaymentMethod | '';
}

export const EMPTY_REGISTRATION: RegistrationFields = {
  firstName: '',
  lastName: '',
  kitName: '',
  email: '',
  password: '',
  confirmPassword: '',
  phoneNumber: '',
  address: '',
  gender: '',
  birthdate: '',
  riderNumber: null,
  tshirtSize: '',
  customTshirtSize: '',
  finisherSleeveSize: '',
  customFinisherSleeveSize: '',
  vestSize: '',
  customVestSize: '',
  emergencyContactName: '',
  emergencyContactNumber: '',
  bloodType: '',
  allergies: '',
  medicalConditions: '',
  motorcycleModel: '',
  clubName: '',
  category: '',
  paymentMethod: '',
};

export type FieldSetter = <K extends keyof RegistrationFields>(field: K, value: RegistrationFields[K]) => void;

/**
 * Builds the multipart body. Optional fields go only when filled; a custom size text goes
 * only with the CUSTOM size it belongs to (a leftover text after switching back to M
 * would contradict the chosen size).
 */
export function buildRegistrationPayload(
  fields: RegistrationFields,
  files: { profileImage: File | null; paymentReceipt: File | null },
  prices: Prices = PRICES,
): FormData {
  const form = new FormData();
  const put = (name: string, value: string | null | undefined) => {
    const text = value?.trim();
    if (text) form.append(name, text);
  };

  const category = fields.category ? normaliseCategory(fields.category, fields.gender || undefined) : '';

  put('firstName', fields.firstName);
  put('lastName', fields.lastName);
  put('email', fields.email);
  // Passwords are sent exactly as typed: trimming would silently change them.
  if (fields.password) form.append('password', fields.password);
  put('phoneNumber', fields.phoneNumber);
  put('address', fields.address);
  put('gender', fields.gender);
  put('birthdate', fields.birthdate);
  put('motorcycleModel', fields.motorcycleModel);
  put('category', category);
  put('kitName', fields.kitName);
  put('clubName', fields.clubName);
  put('paymentMethod', fields.paymentMethod);
  put('emergencyContactName', fields.emergencyContactName);
  put('emergencyContactNumber', fields.emergencyContactNumber);
  put('bloodType', fields.bloodType);
  put('allergies', fields.allergies);
  put('medicalConditions', fields.medicalConditions);
  if (fields.riderNumber !== null) form.append('riderNumber', String(fields.riderNumber));
  put('tshirtSize', fields.tshirtSize);
  if (fields.tshirtSize === 'CUSTOM') put('customTshirtSize', fields.customTshirtSize);
  put('finisherSleeveSize', fields.finisherSleeveSize);
  if (fields.finisherSleeveSize === 'CUSTOM') put('customFinisherSleeveSize', fields.customFinisherSleeveSize);
  put('vestSize', fields.vestSize);
  if (fields.vestSize === 'CUSTOM') put('customVestSize', fields.customVestSize);
  if (category) {
    const amount = paymentAmountFor(category, prices);
    if (amount > 0) form.append('paymentAmount', String(amount));
  }
  if (files.profileImage) form.append('profileImage', files.profileImage, 'profile.jpg');
  if (files.paymentReceipt && fields.paymentMethod && fields.paymentMethod !== 'cash') {
    form.append('paymentReceipt', files.paymentReceipt, files.paymentReceipt.name);
  }
  return form;
}
