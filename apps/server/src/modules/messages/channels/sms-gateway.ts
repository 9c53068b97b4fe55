// SMS through the organiser's Android phone running SMS Gateway for Android (open source,
// github.com/capcom6/android-sms-gateway). Its local server (app/…/localserver/WebService.kt
// and routes/MessagesRoutes.kt) takes `POST /message` (also mounted at `/messages`) with
// basic auth and the JSON `{ id?, textMessage: { text }, phoneNumbers: [...] }` (the older
// top-level `message` string is deprecated), and answers 202 with
// `{ id, state: "Pending", recipients, ... }`; a bad request is 400 `{ message }`, a wrong
// login 401. A message whose id it already holds is answered 202 again and not sent twice
// (MessagesService.enqueueMessage), so the outbox row's id is the message id: a resend after
// a crash is recognised by the phone. The phone splits long texts into parts itself.
import { SMS_MAX_PARTS, SMS_SEGMENT_CHARS } from '@rally/shared/catalog/messages';
import type { MessagesConfig } from '../../../config';
import type { OutboxRow } from '../../../db/schema/messages';
import { type Channel, offChannel } from '../channel';
import type { SendOutcome } from '../outbox';
import type { RenderedMessage } from '../templates';

/** GSM 03.38 default alphabet: a text of these characters only goes as 7-bit parts. */
const GSM_BASIC =
  '@£$¥èéùìòÇ\nØø\rÅåΔ_ΦΓΛΩΠΨΣΘΞÆæßÉ !"#¤%&\'()*+,-./0123456789:;<=>?¡ABCDEFGHIJKLMNOPQRSTUVWXYZÄÖÑÜ§¿abcdefghijklmnopqrstuvwxyzäöñüà';
/** The extension table: each costs two characters of a part. */
const GSM_EXTENDED = '^{}\\[~]|€\f';

/**
 * How many characters of `text` fit in the parts the organiser pays for: a multi-part
 * text carries 153 7-bit characters a part (the rest is the joining header), or 67
 * when any character needs UCS-2 (an emoji, a curly quote).
 */
export function smsCapacity(text: string): { max: number; unicode: boolean } {
  const unicode = [...text].some((c) => !GSM_BASIC.includes(c) && !GSM_EXTENDED.includes(c));
  const single = unicode ? Math.floor((SMS_SEGMENT_CHARS * 7) / 16) : SMS_SEGMENT_CHARS; // 70 or 160
  const perPart = unicode ? single - 3 : single - 7; // 67 or 153
  return { max: SMS_MAX_PARTS > 1 ? perPart * SMS_MAX_PARTS : single, unicode };
}

/** Length in 7-bit characters (an extension character counts twice); plain length for UCS-2. */
const smsLength = (text: string, unicode: boolean) =>
  unicode ? text.length : [...text].reduce((n, c) => n + (GSM_EXTENDED.includes(c) ? 2 : 1), 0);

function cut(text: string, max: number, unicode: boolean): string {
  if (smsLength(text, unicode) <= max) return text;
  let out = '';
  // The ellipsis is not in the GSM alphabet: three dots keep a 7-bit text 7-bit.
  const ellipsis = unicode ? '…' : '...';
  for (const c of text) {
    if (smsLength(out + c + ellipsis, unicode) > max) break;
    out += c;
  }
  return `${out.trimEnd()}${ellipsis}`;
}

/** The text, with its link when the link fits too, shortened with an ellipsis to what the parts carry. */
export function smsText(message: RenderedMessage): string {
  const withLink = message.url && !message.text.includes(message.url) ? `${message.text} ${message.url}` : message.text;
  const linked = smsCapacity(withLink);
  if (smsLength(withLink, linked.unicode) <= linked.max) return withLink;
  const plain = smsCapacity(message.text);
  return cut(message.text, plain.max, plain.unicode);
}

/** The phone's answer in a line for the delivery log: its status, state and message id (or error). */
function describeAnswer(status: number, body: string): string {
  try {
    const json = JSON.parse(body) as { id?: unknown; state?: unknown; message?: unknown };
    const parts = [
      typeof json.state === 'string' ? json.state : null,
      typeof json.id === 'string' ? `id ${json.id}` : null,
      typeof json.message === 'string' ? json.message : null,
    ].filter(Boolean);
    if (parts.length > 0) return `${status} ${parts.join(', ')}`;
  } catch {
    // Not JSON (a proxy's error page): its first words say enough.
  }
  return `${status} ${body.replace(/\s+/g, ' ').trim()}`.trim().slice(0, 300);
}

/** Why the phone could not be reached, in words an organiser reads at a glance. */
function unreachable(err: unknown): string {
  const e = err as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (e?.name === 'TimeoutError')
    return 'SMS gateway did not answer within 30 s (is the phone awake and on the network?)';
  const cause = e?.cause?.message ?? e?.message ?? String(err);
  return `SMS gateway unreachable: ${cause}`;
}

/** Statuses no retry changes: a refused login or a malformed request (a 408 or 429 is worth another try). */
const isPermanent = (status: number) => status >= 400 && status < 500 && status !== 408 && status !== 429;

export function smsGatewayChannel(config: MessagesConfig): Channel {
  if (!config.smsGatewayUrl) return offChannel('sms', 'SMS_GATEWAY_URL');
  const url = new URL(config.smsGatewayUrl);
  // The login travels in the header only: the URL kept (and shown in the console) has none.
  const auth =
    url.username || url.password
      ? `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64')}`
      : null;
  url.username = '';
  url.password = '';
  const endpoint = new URL('message', url.href.endsWith('/') ? url.href : `${url.href}/`).href;
  return {
    name: 'sms',
    configured: true,
    describe: () => `On: the phone at ${url.host}`,
    async send(message: RenderedMessage, row: OutboxRow): Promise<SendOutcome> {
      const request = {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(auth ? { authorization: auth } : {}) },
        body: JSON.stringify({ id: row.id, textMessage: { text: smsText(message) }, phoneNumbers: [row.address] }),
      };
      let res: Response | null = null;
      let body = '';
      // A kept-alive connection the phone dropped fails at once: one more try on a fresh one
      // is safe, since the phone takes a message id only once.
      for (let attempt = 1; res === null; attempt++) {
        try {
          res = await fetch(endpoint, { ...request, signal: AbortSignal.timeout(30_000) });
          body = (await res.text()).slice(0, 2000);
        } catch (err) {
          res = null;
          if (attempt >= 2 || (err as { name?: string }).name === 'TimeoutError')
            return { ok: false, answer: unreachable(err), permanent: false };
        }
      }
      if (res.ok) return { ok: true, answer: describeAnswer(res.status, body) };
      const answer = `SMS gateway answered ${describeAnswer(res.status, body)}`;
      if (res.status === 401 || res.status === 403)
        return { ok: false, answer: `${answer} (check the login in SMS_GATEWAY_URL)`, permanent: true };
      return { ok: false, answer, permanent: isPermanent(res.status) };
    },
  };
}
