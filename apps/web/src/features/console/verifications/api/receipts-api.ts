// Calls of the receipt checks at the verification desk (DESIGN.md §13): the reading staff
// type or correct, and the payment statements matched against receipts.
import type { StatementPreset } from '@rally/shared/catalog/receipts';
import type {
  ReadingPatchBody,
  ReceiptCheck,
  StatementDetail,
  StatementMapping,
  StatementSummary,
} from '@rally/shared/contracts/receipts';
import { queryOptions } from '@tanstack/react-query';
import { call, client } from '../../../../lib/api-client';

export const statementKeys = {
  all: ['console', 'verifications', 'statements'] as const,
  one: (id: string) => ['console', 'verifications', 'statements', id] as const,
};

/** `id` is the pending verification's id. Answers the receipt's check with the new reading and flags. */
export async function patchReading(id: string, body: ReadingPatchBody): Promise<ReceiptCheck> {
  const answer = await call(client.PATCH('/api/admin/verifications/{id}/reading', { params: { path: { id } }, body }));
  return answer.data;
}

export const statementsQuery = () =>
  queryOptions({
    queryKey: statementKeys.all,
    queryFn: async (): Promise<StatementSummary[]> => (await call(client.GET('/api/admin/payment-statements'))).data,
  });

export const statementQuery = (id: string) =>
  queryOptions({
    queryKey: statementKeys.one(id),
    queryFn: async (): Promise<StatementDetail> =>
      (await call(client.GET('/api/admin/payment-statements/{id}', { params: { path: { id } } }))).data,
  });

/** The file goes as multipart (field `file`); a custom preset sends its column names as JSON. */
export async function uploadStatement(
  file: File,
  preset: StatementPreset,
  mapping?: StatementMapping,
): Promise<StatementDetail> {
  const form = new FormData();
  form.append('file', file, file.name);
  form.append('preset', preset);
  if (preset === 'custom' && mapping) form.append('mapping', JSON.stringify(mapping));
  const answer = await call(
    client.POST('/api/admin/payment-statements', {
      // openapi-fetch sends a FormData body as it is; the document types its parts as strings.
      body: form as unknown as { file: string; preset: StatementPreset; mapping?: string },
    }),
  );
  return answer.data;
}
