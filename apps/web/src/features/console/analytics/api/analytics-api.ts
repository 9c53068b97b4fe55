// Calls of the Analytics tab.
import type { Analytics } from '@rally/shared/contracts/analytics';
import { call, client } from '../../../../lib/api-client';

export const analyticsKeys = {
  figures: ['console', 'analytics'] as const,
};

export async function fetchAnalytics(): Promise<Analytics> {
  return (await call(client.GET('/api/admin/analytics'))).data;
}
