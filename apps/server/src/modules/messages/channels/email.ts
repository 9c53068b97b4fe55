// Email over SMTP (nodemailer): `SMTP_URL` (smtp:// or smtps://) and `MAIL_FROM`, both or
// email stays off. Every message has a text and an HTML part in the product's look, the
// outbox row's id as its Message-ID (a resend after a crash is recognisably the same
// message, so receivers drop the copy), and, unless it is a safety message,
// List-Unsubscribe with one-click (RFC 8058).
import nodemailer from 'nodemailer';
import type SMTPTransport from 'nodemailer/lib/smtp-transport';
import type { MessagesConfig } from '../../../config';
import type { OutboxRow } from '../../../db/schema/messages';
import { type Channel, offChannel } from '../channel';
import type { SendOutcome } from '../outbox';
import type { RenderedMessage } from '../templates';

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/** A header value on one line: a CR or LF in a name must never start a header of its own. */
const oneLine = (text: string) => text.replace(/[\r\n\u2028\u2029]+/g, ' ').trim();

/** One plain address and nothing else: a comma, a group or a line break could add recipients. */
const PLAIN_ADDRESS = /^[^\s@,;:<>"()[\]\\]+@[^\s@,;:<>"()[\]\\]+$/;

/**
 * The product's look, readable in the sun: a near-black page, the event's name in a bold
 * band with a fire-orange rule, bone-white text, one orange button. Inline styles only
 * (mail clients drop style sheets); every value escaped.
 */
export function emailHtml(message: RenderedMessage, unsubscribeUrl: string | null): string {
  const button = message.url
    ? `<table role="presentation" cellpadding="0" cellspacing="0" style="margin:28px 0 4px"><tr><td style="background:#f97316;border-radius:6px"><a href="${escapeHtml(message.url)}" style="display:inline-block;padding:15px 26px;color:#0c0a09;font-weight:900;font-size:16px;letter-spacing:1px;text-transform:uppercase;text-decoration:none">Open in the rally app</a></td></tr></table>`
    : '';
  const footer = unsubscribeUrl
    ? `<p style="color:#a89c8d;font-size:12px;line-height:1.5;margin:18px 0 0">You get this because of your rally account or a rider you follow. <a href="${escapeHtml(unsubscribeUrl)}" style="color:#c9bfb2">Unsubscribe from these emails</a>.</p>`
    : '';
  return `<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><meta name="color-scheme" content="dark"></head>
<body style="margin:0;padding:0;background:#0c0a09;font-family:Arial,Helvetica,sans-serif;color:#f7f1e8">
<div style="background:#151210;border-bottom:4px solid #f97316;padding:22px 20px;text-align:center"><div style="color:#fbbf24;font-size:22px;font-weight:900;letter-spacing:3px;text-transform:uppercase">Mindanao Warriors Rally</div></div>
<div style="max-width:560px;margin:0 auto;padding:26px 20px 32px"><div style="background:#1c1815;border:1px solid #342e28;border-radius:8px;padding:26px 22px">
<h1 style="font-size:22px;line-height:1.25;margin:0 0 14px;color:#ffffff;font-weight:900;text-transform:uppercase">${escapeHtml(message.subject)}</h1>
<p style="font-size:17px;line-height:1.55;margin:0;color:#f7f1e8">${escapeHtml(message.text)}</p>${button}</div>${footer}</div></body></html>`;
}

interface SmtpError {
  responseCode?: unknown;
  command?: unknown;
  response?: unknown;
}

/**
 * Whether no retry can help: the server refused this recipient or this message for good
 * (5xx on RCPT TO, MAIL FROM or DATA). A 4xx, a dropped connection, a timeout or a refused
 * login (the operator fixes SMTP_URL) is tried again later.
 */
export function isPermanentSmtpFailure(err: unknown): boolean {
  const { responseCode, command } = (err ?? {}) as SmtpError;
  if (typeof responseCode !== 'number' || responseCode < 500 || responseCode >= 600) return false;
  return typeof command === 'string' && /^(RCPT|MAIL|DATA)/i.test(command);
}

export interface EmailChannelOptions {
  publicUrl: string;
  /** The one-click unsubscribe link for a row (null when it names no account or follower). */
  unsubscribeUrl(row: OutboxRow): string | null;
}

const SECOND = 1000;

export function emailChannel(config: MessagesConfig, opts: EmailChannelOptions): Channel {
  if (!config.smtpUrl || !config.mailFrom) return offChannel('email', 'SMTP_URL and MAIL_FROM');
  const from = oneLine(config.mailFrom);
  // The URL carries host, port, TLS and the login; a pool keeps a few connections open.
  // Each wait ends within ~30 s; a message may also wait its turn for a connection behind
  // the rest of its batch, for which the worker renews its lease (outbox-worker.ts).
  const transport = nodemailer.createTransport({
    url: config.smtpUrl,
    pool: true,
    maxConnections: 4,
    connectionTimeout: 15 * SECOND,
    greetingTimeout: 15 * SECOND,
    socketTimeout: 30 * SECOND,
  } as SMTPTransport.Options);
  const where = new URL(config.smtpUrl);
  const idHost = new URL(opts.publicUrl).hostname || 'rally.local';
  return {
    name: 'email',
    configured: true,
    describe: () => `On: ${where.protocol}//${where.host}, from ${from}`,
    async send(message: RenderedMessage, row: OutboxRow): Promise<SendOutcome> {
      if (!PLAIN_ADDRESS.test(row.address))
        return { ok: false, answer: 'not a single plain email address', permanent: true };
      const unsubscribe = message.urgent ? null : opts.unsubscribeUrl(row);
      try {
        const info = await transport.sendMail({
          from,
          to: row.address,
          subject: oneLine(message.subject),
          text: message.url ? `${message.text}\n\n${message.url}` : message.text,
          html: emailHtml(message, unsubscribe),
          messageId: `<${row.id}@${idHost}>`,
          ...(unsubscribe ? { list: { unsubscribe } } : {}),
          headers: unsubscribe ? { 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' } : {},
        });
        return { ok: true, answer: String(info.response ?? 'accepted') };
      } catch (err) {
        const text = err instanceof Error ? err.message : String(err);
        return { ok: false, answer: `SMTP: ${text}`, permanent: isPermanentSmtpFailure(err) };
      }
    },
    close: async () => transport.close(),
  };
}
