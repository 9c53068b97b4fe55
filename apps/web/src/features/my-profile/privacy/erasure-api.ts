// The rider's own erasure request (DESIGN.md §12): read, ask, withdraw.
import type { MyErasureRequest } from '@rally/shared/contracts/erasure';
import { queryOptions } from '@tanstack/react-query';
import { call, client } from '../../../lib/api-client';

export const erasureKey = ['my-erasure-request'] as const;

export const myErasureQuery = () =>
  queryOptions({
    queryKey: erasureKey,
    queryFn: async (): Promise<MyErasureRequest | null> => (await call(client.GET('/api/my/erasure-request'))).data,
  });

export async function askErasure(note: string): Promise<MyErasureRequest | null> {
  const body = note.trim() ? { note: note.trim() } : {};
  return (await call(client.POST('/api/my/erasure-request', { body }))).data;
}

export async function withdrawErasure(): Promise<void> {
  await call(client.DELETE('/api/my/erasure-request'));
}
