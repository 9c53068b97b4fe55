import type { MessageChannel, MessageTemplate } from '@rally/shared/catalog/messages';
import type { DeliveryLogEntry } from '@rally/shared/contracts/messages';
import { iso, isoOrNull } from '../../lib/sql-text';
import type { ChannelStateRow, DeliveryRow } from './messages.service';

/** The push service a subscription posts to (fcm.googleapis.com), never its secret path. */
function pushService(endpoint: string | null): string {
  if (!endpoint) return 'push: a removed browser';
  try {
    return `push: ${new URL(endpoint).host}`;
  } catch {
    return 'push: unknown service';
  }
}

/**
 * Who a message went to. Staff without view_users see enough to tell which (m***@gmail.com,
 * +63*****4567); an endpoint's path is a capability, so nobody sees more than its host.
 */
export function presentRecipient(
  channel: MessageChannel,
  address: string,
  pushEndpoint: string | null,
  full: boolean,
): string {
  if (channel === 'push') return pushService(pushEndpoint);
  if (full) return address;
  if (channel === 'email') {
    const at = address.lastIndexOf('@');
    return at > 0 ? `${address.slice(0, 1)}***${address.slice(at)}` : '***';
  }
  return address.length > 7 ? `${address.slice(0, 3)}*****${address.slice(-4)}` : '*****';
}

/**
 * A provider's answer with the address masked as the recipient is: a refusal often quotes
 * it ("550 5.1.1 <ana@example.com>: Recipient address rejected").
 */
export function presentAnswer(answer: string | null, channel: MessageChannel, address: string, full: boolean) {
  if (answer === null || full || channel === 'push' || address === '') return answer;
  return answer.split(address).join(presentRecipient(channel, address, null, false));
}

export function presentDelivery(row: DeliveryRow, full: boolean): DeliveryLogEntry {
  return {
    id: row.id,
    channel: row.channel,
    template: row.template as MessageTemplate,
    recipient: presentRecipient(row.channel, row.address, row.pushEndpoint, full),
    status: row.status,
    attempts: row.attempts,
    providerAnswer: presentAnswer(row.providerAnswer, row.channel, row.address, full),
    incidentId: row.incidentId,
    createdAt: iso(row.createdAt),
    sentAt: isoOrNull(row.sentAt),
    // Only a message still to be tried has a next attempt.
    nextAttemptAt: row.status === 'pending' ? iso(row.nextAttemptAt) : null,
  };
}

export function presentChannelState(state: ChannelStateRow, full: boolean) {
  const failure = state.lastFailure;
  return {
    channel: state.channel,
    configured: state.configured,
    detail: state.detail,
    lastFailure: failure ? presentAnswer(failure.answer, state.channel, failure.address, full) : null,
  };
}
