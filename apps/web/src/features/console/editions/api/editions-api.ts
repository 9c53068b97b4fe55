import type { CreateEditionRequest, Edition, UpdateEditionRequest } from '@rally/shared/contracts/editions';
import { call, client } from '../../../../lib/api-client';

export async function createEdition(body: CreateEditionRequest): Promise<Edition> {
  return (await call(client.POST('/api/admin/editions', { body }))).data.edition;
}

export async function updateEdition(id: string, body: UpdateEditionRequest): Promise<Edition> {
  return (await call(client.PATCH('/api/admin/editions/{id}', { params: { path: { id } }, body }))).data.edition;
}

/** The rollover: the edition becomes current, the current one's entries its history. */
export async function makeCurrent(id: string): Promise<{ edition: Edition; message: string }> {
  const answer = await call(client.POST('/api/admin/editions/{id}/make-current', { params: { path: { id } } }));
  return {
    edition: answer.data.edition,
    message: answer.message ?? `${answer.data.edition.name} is now the current edition`,
  };
}
