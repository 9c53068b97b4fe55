// The Notifications section's state: the account's choices (saved at once, shown before the
// server answers, put back if it refuses) and whether this browser gets push.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useEffect, useState } from 'react';
import { toast } from '../../../lib/toast';
import {
  fetchNotificationSettings,
  type NotificationChoices,
  type NotificationSettingsView,
  notificationKeys,
  type PushSubscriptionJson,
  savePushSubscription,
  updateNotificationSettings,
} from './notifications-api';
import { currentSubscription, PushUnavailable, pushSupport, turnPushOff, turnPushOn } from './push-browser';

export function useNotificationSettings() {
  const queryClient = useQueryClient();
  const query = useQuery({ queryKey: notificationKeys.settings, queryFn: fetchNotificationSettings });
  const mutation = useMutation({
    mutationFn: updateNotificationSettings,
    onMutate: async (change: NotificationChoices) => {
      await queryClient.cancelQueries({ queryKey: notificationKeys.settings });
      const before = queryClient.getQueryData<NotificationSettingsView>(notificationKeys.settings);
      if (before) queryClient.setQueryData(notificationKeys.settings, { ...before, ...change });
      return { before };
    },
    onError: (error, _change, context) => {
      if (context?.before) queryClient.setQueryData(notificationKeys.settings, context.before);
      toast.error(error.message || 'Failed to save notification settings');
    },
    onSuccess: (data) => queryClient.setQueryData(notificationKeys.settings, data),
  });
  return { query, change: mutation.mutate };
}

export type PushState = 'checking' | 'on' | 'off';

/** Whether this browser gets push, and turning it on or off (the permission prompt included). */
export function usePushOnThisDevice() {
  const queryClient = useQueryClient();
  const [state, setState] = useState<PushState>('checking');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const support = typeof window === 'undefined' ? 'unsupported' : pushSupport();

  useEffect(() => {
    let live = true;
    currentSubscription()
      .then(async (subscription) => {
        // A browser subscribed before a subscription belonged to its sign-in (an install
        // upgraded from then), or under a sign-in that has ended, hears nothing meant for the
        // account: registered again, it is this sign-in's. The server keeps the row and its
        // keys (the same browser's auth secret), so this changes nothing else.
        if (subscription) await savePushSubscription(subscription.toJSON() as PushSubscriptionJson).catch(() => {});
        if (live) setState(subscription ? 'on' : 'off');
      })
      .catch(() => live && setState('off'));
    return () => {
      live = false;
    };
  }, []);

  const run = useCallback(
    async (work: () => Promise<unknown>, next: PushState) => {
      setBusy(true);
      setProblem(null);
      try {
        await work();
        setState(next);
      } catch (error) {
        setProblem(
          error instanceof PushUnavailable ? error.message : `Push could not be changed: ${(error as Error).message}`,
        );
      } finally {
        setBusy(false);
        queryClient.invalidateQueries({ queryKey: notificationKeys.settings });
      }
    },
    [queryClient],
  );

  return {
    support,
    state,
    busy,
    problem,
    turnOn: () => run(turnPushOn, 'on'),
    turnOff: () => run(turnPushOff, 'off'),
  };
}
