// The rider's own verification: the rejection reason, and a new receipt after a rejection.
import { apiUpload, call, client } from '../../../lib/api-client';

export async function fetchMyVerification() {
  return (await call(client.GET('/api/my/verification'))).data;
}

export function resubmitReceipt(file: File, onProgress: (percent: number) => void) {
  const form = new FormData();
  form.append('paymentReceipt', file, file.name);
  return apiUpload('/api/my/verification/receipt', form, { onProgress });
}
