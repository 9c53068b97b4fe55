import type { Retention, UpdateRetentionRequest } from '@rally/shared/contracts/retention';
import { call, client } from '../../../../lib/api-client';

export const retentionKey = (editionId: string) => ['edition-retention', editionId] as const;

export async function fetchRetention(id: string): Promise<Retention> {
  return (await call(client.GET('/api/admin/editions/{id}/retention', { params: { path: { id } } }))).data.retention;
}

export async function saveRetention(id: string, body: UpdateRetentionRequest): Promise<Retention> {
  return (await call(client.PUT('/api/admin/editions/{id}/retention', { params: { path: { id } }, body }))).data
    .retention;
}
