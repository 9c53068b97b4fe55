// Calls of the Analytics tab.
import type { Analytics } from '@rally/shared/contracts/analytics';
import { api } from '../../../../lib/api-client';

export const analyticsKeys = {
  figures: ['console', 'analytics'] as const,
};

export async function fetchAnalytics(): Promise<Analytics> {
  return (await api.get<{ data: Analytics }>('/admin/analytics')).data;
}
