// Calls of the QR Sticker Generator and the sticker page.
import { ID_CARD_PAGE_SIZE } from '@rally/shared/catalog';
import type { StickerSheetBody } from '@rally/shared/contracts/exports';
import type {
  IdCardDetail,
  IdCardDetailResponse,
  IdCardSearchResponse,
  IdCardStats,
} from '@rally/shared/contracts/id-cards';
import { api } from '../../../../lib/api-client';
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
  const q = new URLSearchParams({ page: String(params.page), limit: String(ID_CARD_PAGE_SIZE) });
  if (params.search) q.set('search', params.search);
  if (params.filter !== 'all') q.set('isPrinted', params.filter === 'printed' ? 'true' : 'false');
  return (await api.get<IdCardSearchResponse>(`/admin/id-cards/search?${q}`)).data;
}

export async function fetchCardStats(): Promise<IdCardStats> {
  return (await api.get<{ data: IdCardStats }>('/admin/id-cards/stats')).data;
}

export async function fetchCardDetail(userId: string): Promise<IdCardDetail> {
  return (await api.get<IdCardDetailResponse>(`/admin/id-cards/user/${encodeURIComponent(userId)}`)).data;
}

export async function markPrinted(userId: string, notes?: string) {
  return api.post<{ data: { print_count: number; printed_at: string } }>(
    `/admin/id-cards/mark-printed/${encodeURIComponent(userId)}`,
    notes ? { notes } : {},
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
