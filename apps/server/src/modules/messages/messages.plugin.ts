// The messages plugin: opens the channels the settings allow, starts this instance's outbox
// worker (with the SOS escalation job), and decorates the app with what routes pass to the
// services that cause messages (`app.messenger`) and the worker (`app.outbox`).
import { hostname } from 'node:os';
import type { MessageChannel } from '@rally/shared/catalog/messages';
import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Config } from '../../config';
import type { Database } from '../../db/client';
import type { Channel } from './channel';
import { emailChannel } from './channels/email';
import { smsGatewayChannel } from './channels/sms-gateway';
import { loadVapidKeys, type VapidKeys, webPushChannel } from './channels/web-push';
import { escalationJob, publishMessageStep } from './escalation';
import type { Messenger } from './messenger';
import { OutboxWorker, type ScheduledJob } from './outbox-worker';
import { loadUnsubscribeKey, unsubscribeUrl } from './unsubscribe';

export interface MessagesRuntime extends Messenger {
  readonly channels: ReadonlyMap<MessageChannel, Channel>;
  readonly vapid: VapidKeys;
  readonly unsubscribeKey: string;
  readonly worker: OutboxWorker | null;
}

declare module 'fastify' {
  interface FastifyInstance {
    messenger: MessagesRuntime;
  }
}

/** `jobs`: other modules' scheduled work run by the same worker loop (retention per edition, data exports). */
export const messagesPlugin = fp(
  async (app: FastifyInstance, opts: { config: Config; database: Database; jobs?: readonly ScheduledJob[] }) => {
    const { config, database } = opts;
    const settings = config.messages;
    const vapid = loadVapidKeys(settings, config.dataDir);
    const unsubscribeKey = loadUnsubscribeKey(config.dataDir);
    const channels = new Map<MessageChannel, Channel>();
    for (const channel of [
      emailChannel(settings, {
        publicUrl: config.publicUrl,
        unsubscribeUrl: (row) => unsubscribeUrl(unsubscribeKey, config.publicUrl, row),
      }),
      webPushChannel(settings, vapid, database.db),
      smsGatewayChannel(settings),
    ])
      channels.set(channel.name, channel);
    const on = new Set([...channels.values()].filter((c) => c.configured).map((c) => c.name));
    const base = { on, publicUrl: config.publicUrl, escalateAfterS: settings.escalateAfterS };
    const worker = settings.worker
      ? new OutboxWorker({
          db: database.db,
          channels,
          clock: app.clock,
          publicUrl: config.publicUrl,
          instance: `${hostname()}:${process.pid}:${Math.random().toString(36).slice(2, 8)}`,
          log: app.log,
          jobs: [escalationJob(database.db, base), ...(opts.jobs ?? [])],
          // An incident's message sent, failed or due again: open consoles refetch its timeline.
          onOutcome: async (row, status) => {
            if (row.incidentId) await publishMessageStep(database.db, row.incidentId, status);
          },
        })
      : null;
    app.decorate('messenger', { ...base, channels, vapid, unsubscribeKey, worker } satisfies MessagesRuntime);
    app.addHook('onReady', async () => worker?.start(database));
    app.addHook('onClose', async () => {
      await worker?.stop();
      for (const channel of channels.values()) await channel.close?.();
    });
  },
);
