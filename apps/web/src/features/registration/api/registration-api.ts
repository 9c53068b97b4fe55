import type { UserRecord } from '@rally/shared/contracts/auth';
import { useQuery } from '@tanstack/react-query';
import { api, apiUpload } from '../../../lib/api-client';

export const takenNumbersKey = ['rider-numbers', 'taken'] as const;

/** Numbers already claimed. A failure reads as "none taken": the server still refuses a taken number with 409. */
export async function fetchTakenNumbers(): Promise<number[]> {
  try {
    const response = await api.get<{ success?: boolean; data?: { takenNumbers?: unknown } }>('/rider-numbers/taken');
    const list = response?.data?.takenNumbers;
    return Array.isArray(list) ? list.filter((n): n is number => Number.isInteger(n)) : [];
  } catch {
    return [];
  }
}

export function useTakenNumbers() {
  return useQuery({ queryKey: takenNumbersKey, queryFn: fetchTakenNumbers, staleTime: 15_000 });
}

export interface PaymentAccount {
  accountName: string;
  accountNumber: string;
  bankName?: string;
}
export interface PaymentConfig {
  gcash?: PaymentAccount;
  bank_transfer?: PaymentAccount;
}

export function usePaymentConfig() {
  return useQuery({
    queryKey: ['config', 'payment'],
    queryFn: async () => {
      const response = await api.get<{ success?: boolean; data?: PaymentConfig }>('/config/payment');
      return response?.data ?? {};
    },
    staleTime: 5 * 60_000,
  });
}

export interface RegistrationResponse {
  success?: boolean;
  message?: string;
  token?: string;
  data?: { user?: UserRecord };
}

export function submitRegistration(form: FormData, onProgress: (percent: number) => void) {
  return apiUpload<RegistrationResponse>('/auth/register-with-uploads', form, { onProgress });
}
