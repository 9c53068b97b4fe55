// The rider's own verification: the rejection reason, and a new receipt after a rejection.
import type { MyVerification } from '@rally/shared/contracts/verifications';
import { api, apiUpload } from '../../../lib/api-client';

export async function fetchMyVerification(): Promise<MyVerification> {
  return (await api.get<{ data: MyVerification }>('/my/verification')).data;
}

export function resubmitReceipt(file: File, onProgress: (percent: number) => void) {
  const form = new FormData();
  form.append('paymentReceipt', file, file.name);
  return apiUpload<{ success: true; message: string }>('/my/verification/receipt', form, { onProgress });
}
