// Calls of the Kit Tracker.
import { KIT_PAGE_SIZE } from '@rally/shared/catalog/console';
import type {
  KitFilter,
  KitGivenField,
  KitListResponse,
  KitParticipant,
  KitSortField,
  SortOrder,
} from '@rally/shared/contracts/kit-tracking';
import { call, client } from '../../../../lib/api-client';

export interface KitListParams {
  page: number;
  search: string;
  filter: KitFilter;
  sortBy: KitSortField;
  sortOrder: SortOrder;
}

/** Every page and filter of the list sits under this key; invalidating it refreshes list and stats. */
export const kitKeys = {
  all: ['console', 'kit-tracker'] as const,
  list: (params: KitListParams) => ['console', 'kit-tracker', 'list', params] as const,
};

export async function fetchParticipants(params: KitListParams): Promise<KitListResponse['data']> {
  const query = {
    page: params.page,
    limit: KIT_PAGE_SIZE,
    sort_by: params.sortBy,
    sort_order: params.sortOrder,
    filter_status: params.filter,
    search: params.search || undefined,
  };
  return (await call(client.GET('/api/admin/kit-tracking', { params: { query } }))).data;
}

export type KitChange =
  | { tshirt_given: boolean }
  | { vest_given: boolean }
  | { finisher_sleeve_given: boolean }
  | { notes: string };

export async function updateKit(userId: string, change: KitChange): Promise<KitParticipant> {
  return (await call(client.PUT('/api/admin/kit-tracking/{userId}', { params: { path: { userId } }, body: change })))
    .data;
}

/** The three items in one call, recorded as three ticked boxes would be. */
export async function handOverAll(userId: string): Promise<KitParticipant> {
  return (await call(client.POST('/api/admin/kit-tracking/{userId}/hand-over-all', { params: { path: { userId } } })))
    .data;
}

/**
 * Takes back what a "Hand over all" gave: only the items it turned to given, in one
 * call (the bulk route applies them together), so items given earlier keep their time.
 */
export async function undoHandOver(
  userId: string,
  fields: readonly KitGivenField[],
): Promise<KitParticipant | undefined> {
  const update = Object.fromEntries([['user_id', userId], ...fields.map((f) => [f, false])]);
  const answer = await call(client.POST('/api/admin/kit-tracking/bulk-update', { body: { updates: [update] } }));
  return answer.data.participants[0];
}
