// Calls of the Settings tab's Messages section: the channels, the delivery log, a test.
import type { MessageChannel, MessageStatus } from '@rally/shared/catalog/messages';
import { call, client } from '../../../../lib/api-client';

export const DELIVERY_PAGE_SIZE = 20;

export interface DeliveryFilters {
  status: MessageStatus | 'all';
  channel: MessageChannel | 'all';
}

export const messageKeys = {
  all: ['console', 'messages'] as const,
  channels: ['console', 'messages', 'channels'] as const,
  log: (filters: DeliveryFilters, page: number) => ['console', 'messages', 'log', filters, page] as const,
};

export async function fetchChannels() {
  return (await call(client.GET('/api/admin/messages/channels'))).data.channels;
}

export async function fetchDeliveries(filters: DeliveryFilters, page: number) {
  const query = {
    page,
    limit: DELIVERY_PAGE_SIZE,
    ...(filters.status === 'all' ? {} : { status: filters.status }),
    ...(filters.channel === 'all' ? {} : { channel: filters.channel }),
  };
  return (await call(client.GET('/api/admin/messages', { params: { query } }))).data;
}

/** Queues a failed message again; answers the server's sentence. */
export async function resendMessage(id: string): Promise<string> {
  const answer = await call(client.POST('/api/admin/messages/{id}/resend', { params: { path: { id } } }));
  return answer.message ?? 'Queued again';
}

/** Queues a test message to the caller's own address; answers the server's sentence. */
export async function sendTestMessage(channel: MessageChannel): Promise<string> {
  const answer = await call(client.POST('/api/admin/messages/test', { body: { channel } }));
  return answer.message ?? 'Test message queued';
}
