// Calls of the Notifications section: what the account hears by, and this browser's push.
import type { ApiAnswer, ApiBody } from '../../../lib/api-client';
import { call, client, publicClient } from '../../../lib/api-client';

export type NotificationSettingsView = ApiAnswer<'/api/my/notification-settings'>['data'];
export type NotificationChoices = ApiBody<'/api/my/notification-settings', 'patch'>;
export type PushSubscriptionJson = ApiBody<'/api/my/push-subscriptions', 'post'>;

export const notificationKeys = {
  settings: ['my-notification-settings'] as const,
  publicKey: ['push-public-key'] as const,
};

export async function fetchNotificationSettings(): Promise<NotificationSettingsView> {
  return (await call(client.GET('/api/my/notification-settings'))).data;
}

export async function updateNotificationSettings(body: NotificationChoices): Promise<NotificationSettingsView> {
  return (await call(client.PATCH('/api/my/notification-settings', { body }))).data;
}

export async function fetchPushPublicKey(): Promise<string> {
  return (await call(publicClient.GET('/api/push/public-key'))).data.publicKey;
}

export async function savePushSubscription(body: PushSubscriptionJson): Promise<void> {
  await call(client.POST('/api/my/push-subscriptions', { body }));
}

export async function removePushSubscription(endpoint: string): Promise<void> {
  await call(client.DELETE('/api/my/push-subscriptions', { body: { endpoint } }));
}
