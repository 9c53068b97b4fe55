// Calls of the QR Sticker Generator and the sticker page.
import { ID_CARD_PAGE_SIZE } from '@rally/shared/catalog/console';
import type { StickerSheetBody } from '@rally/shared/contracts/exports';
import type { IdCardDetail, IdCardSearchResponse, IdCardStats } from '@rally/shared/contracts/id-cards';
import { call, client } from '../../../../lib/api-client';
import { downloadFile } from '../../../../lib/download';

export type PrintFilter = 'all' | 'printed' | 'not_printed';

export interface CardListParams {
  page: number;
  search: string;
  filter: PrintFilter;
}

export const idCardKeys = {
  all: ['console', 'id-cards'] as const,
  list: (params: CardListParams) => ['console', 'id-cards', 'list', params] as const,
  stats: ['console', 'id-cards', 'stats'] as const,
  detail: (id: string) => ['console', 'id-cards', 'detail', id] as const,
};

export async function fetchCards(params: CardListParams): Promise<IdCardSearchResponse['data']> {
  const query = {
    page: params.page,
    limit: ID_CARD_PAGE_SIZE,
    search: params.search || undefined,
    isPrinted:
      params.filter === 'all' ? undefined : params.filter === 'printed' ? ('true' as const) : ('false' as const),
  };
  return (await call(client.GET('/api/admin/id-cards/search', { params: { query } }))).data;
}

export async function fetchCardStats(): Promise<IdCardStats> {
  return (await call(client.GET('/api/admin/id-cards/stats'))).data;
}

export async function fetchCardDetail(userId: string): Promise<IdCardDetail> {
  return (await call(client.GET('/api/admin/id-cards/user/{id}', { params: { path: { id: userId } } }))).data;
}

export async function markPrinted(userId: string, notes?: string) {
  return call(
    client.POST('/api/admin/id-cards/mark-printed/{id}', {
      params: { path: { id: userId } },
      body: notes ? { notes } : {},
    }),
  );
}

/** The sticker page opens in a new tab, so the generator's list stays where it was. */
export function openStickerPage(userId: string) {
  window.open(`/admin/print-qr/${encodeURIComponent(userId)}`, '_blank', 'noopener');
}

/**
 * An A4 PDF of 5 cm stickers for the riders picked, or every verified rider never printed;
 * the server counts each sticker printed. Saved as a download (the bearer token rules out
 * a plain link).
 */
export async function printStickerSheet(selection: StickerSheetBody): Promise<{ fileName: string; count: number }> {
  const file = await downloadFile('/admin/stickers/sheet', 'qr-stickers.pdf', { method: 'POST', body: selection });
  return { fileName: file.fileName, count: Number(file.headers.get('x-sticker-count') ?? 0) };
}
