// What every channel (push, email, SMS) offers the worker. A channel is off until its
// settings are given; the worker and the console ask it which it is.
import type { MessageChannel } from '@rally/shared/catalog/messages';
import type { OutboxRow } from '../../db/schema/messages';
import type { SendOutcome } from './outbox';
import type { RenderedMessage } from './templates';

export interface Channel {
  readonly name: MessageChannel;
  readonly configured: boolean;
  /** Where it sends, or what setting is missing: shown in the console's Settings. */
  describe(): string;
  /** Sends one message; never throws (a failure is an outcome). */
  send(message: RenderedMessage, row: OutboxRow): Promise<SendOutcome>;
  close?(): Promise<void>;
}

/** A channel that is not configured: its rows are never written, but a stray one fails plainly. */
export function offChannel(name: MessageChannel, missing: string): Channel {
  return {
    name,
    configured: false,
    describe: () => `Off: set ${missing}`,
    send: async () => ({ ok: false, answer: `${name} is not configured (set ${missing})`, permanent: true }),
  };
}
