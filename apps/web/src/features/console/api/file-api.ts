// Blob reads of payment receipts, with the console's error texts ('Payment receipt not
// found' when there is none).
import { API_BASE, getAuthToken } from '../../../lib/api-client';

export class MissingFileError extends Error {}

/** A receipt by its owner's user id (the current one) or by a file id (any, a replaced one too). */
export async function fetchReceiptBlob(userId: string): Promise<Blob> {
  const token = getAuthToken();
  if (!token) throw new Error('Authentication token not found');
  const res = await fetch(`${API_BASE}/upload/payment-receipt/${encodeURIComponent(userId)}`, {
    headers: { Authorization: `Bearer ${token}` },
  });
  if (res.status === 404) throw new MissingFileError('Payment receipt not found');
  if (!res.ok) throw new Error(`Failed to fetch payment receipt: ${res.status}`);
  return res.blob();
}

/** The receipt's bytes, shared by the receipt modal and the verification desk (one download each). */
export const receiptQuery = (userId: string) => ({
  queryKey: ['console', 'receipt', userId],
  queryFn: () => fetchReceiptBlob(userId),
  retry: false,
  staleTime: 60_000,
});
