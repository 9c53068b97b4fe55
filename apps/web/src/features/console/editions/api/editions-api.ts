import type { CreateEditionRequest, Edition, UpdateEditionRequest } from '@rally/shared/contracts/editions';
import { call, client } from '../../../../lib/api-client';

export async function createEdition(body: CreateEditionRequest): Promise<Edition> {
  return (await call(client.POST('/api/admin/editions', { body }))).data.edition;
}

export async function updateEdition(id: string, body: UpdateEditionRequest): Promise<Edition> {
  return (await call(client.PATCH('/api/admin/editions/{id}', { params: { path: { id } }, body }))).data.edition;
}
