// A real SMTP server for tests (smtp-server on 127.0.0.1, a free port): it takes what the
// product sends over the wire and keeps each message parsed, minimally, as RFC 5322 says:
// the headers (unfolded, several of one name kept), the envelope the client gave, and the
// text/plain and text/html parts of a multipart/alternative body, decoded.
import type { AddressInfo } from 'node:net';
import { SMTPServer, type SMTPServerOptions } from 'smtp-server';

export interface SinkMessage {
  /** Every header as [lower-cased name, unfolded value], in order. */
  headers: Array<[string, string]>;
  /** The first value of a header, or undefined. */
  header(name: string): string | undefined;
  /** All values of a header (e.g. to prove there is exactly one From:). */
  headerAll(name: string): string[];
  envelope: { from: string; to: string[] };
  text: string | null;
  html: string | null;
  raw: string;
}

export interface SmtpSinkOptions {
  /** Waits this long before answering the end of DATA (a slow provider). */
  dataDelayMs?: number;
  /** Refuses a recipient with this SMTP code and text (e.g. [550, 'No such user']). */
  refuseRecipient?: (address: string) => [number, string] | null;
}

export interface SmtpSink {
  port: number;
  /** smtp://127.0.0.1:port, for SMTP_URL. */
  url: string;
  messages: SinkMessage[];
  /** Resolves once `count` messages arrived (or rejects after `timeoutMs`). */
  waitForCount(count: number, timeoutMs?: number): Promise<SinkMessage[]>;
  close(): Promise<void>;
}

function unfoldHeaders(block: string): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const line of block.split(/\r\n/)) {
    if (/^[ \t]/.test(line) && out.length > 0) {
      const last = out[out.length - 1] as [string, string];
      last[1] = `${last[1]} ${line.trim()}`.trim();
      continue;
    }
    const colon = line.indexOf(':');
    if (colon > 0) out.push([line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim()]);
  }
  return out;
}

function splitHead(raw: string): { head: string; body: string } {
  const at = raw.indexOf('\r\n\r\n');
  return at < 0 ? { head: raw, body: '' } : { head: raw.slice(0, at), body: raw.slice(at + 4) };
}

function decodeWords(value: string): string {
  return value.replace(/=\?([^?]+)\?([BbQq])\?([^?]*)\?=/g, (_m, _charset, enc: string, text: string) =>
    enc.toUpperCase() === 'B'
      ? Buffer.from(text, 'base64').toString('utf8')
      : Buffer.from(
          text
            .replace(/_/g, ' ')
            .replace(/=([0-9A-Fa-f]{2})/g, (_x, h: string) => String.fromCharCode(parseInt(h, 16))),
          'latin1',
        ).toString('utf8'),
  );
}

function decodeBody(body: string, encoding: string | undefined): string {
  const enc = (encoding ?? '7bit').toLowerCase();
  if (enc === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  if (enc === 'quoted-printable') {
    const bytes = body
      .replace(/=\r\n/g, '')
      .replace(/=([0-9A-Fa-f]{2})/g, (_m, h: string) => String.fromCharCode(parseInt(h, 16)));
    return Buffer.from(bytes, 'latin1').toString('utf8');
  }
  return body;
}

const first = (headers: Array<[string, string]>, name: string) => headers.find(([n]) => n === name)?.[1];

/** Finds the text/plain and text/html leaves of a (possibly nested) multipart body. */
function collectParts(head: Array<[string, string]>, body: string, out: { text: string | null; html: string | null }) {
  const type = first(head, 'content-type') ?? 'text/plain';
  const boundary = /boundary="?([^";]+)"?/i.exec(type)?.[1];
  if (/^multipart\//i.test(type) && boundary) {
    const pieces = body.split(`--${boundary}`);
    // Before the first boundary: the preamble; after the closing one ("--"): the epilogue.
    for (const piece of pieces.slice(1)) {
      if (piece.startsWith('--')) break;
      const { head: partHead, body: partBody } = splitHead(piece.replace(/^\r\n/, ''));
      collectParts(unfoldHeaders(partHead), partBody.replace(/\r\n$/, ''), out);
    }
    return;
  }
  const decoded = decodeBody(body, first(head, 'content-transfer-encoding'));
  if (/^text\/html/i.test(type)) out.html ??= decoded;
  else if (/^text\/plain/i.test(type)) out.text ??= decoded;
}

export function parseMessage(raw: string, envelope: SinkMessage['envelope']): SinkMessage {
  const { head, body } = splitHead(raw);
  const headers = unfoldHeaders(head).map(([n, v]) => [n, decodeWords(v)] as [string, string]);
  const parts = { text: null as string | null, html: null as string | null };
  collectParts(headers, body, parts);
  return {
    headers,
    header: (name) => first(headers, name.toLowerCase()),
    headerAll: (name) => headers.filter(([n]) => n === name.toLowerCase()).map(([, v]) => v),
    envelope,
    text: parts.text,
    html: parts.html,
    raw,
  };
}

export async function startSmtpSink(opts: SmtpSinkOptions = {}): Promise<SmtpSink> {
  const messages: SinkMessage[] = [];
  const waiters: Array<() => void> = [];
  let queued = 0;
  const options: SMTPServerOptions = {
    // Plain SMTP as smtp:// speaks it here: no STARTTLS (a self-signed certificate) and no login.
    disabledCommands: ['STARTTLS', 'AUTH'],
    authOptional: true,
    logger: false,
    onRcptTo(address, _session, callback) {
      const refusal = opts.refuseRecipient?.(address.address);
      if (!refusal) return callback();
      const err = new Error(refusal[1]) as Error & { responseCode: number };
      err.responseCode = refusal[0];
      return callback(err);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const finish = () => {
          messages.push(
            parseMessage(Buffer.concat(chunks).toString('utf8'), {
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
              to: session.envelope.rcptTo.map((r) => r.address),
            }),
          );
          for (const wake of waiters.splice(0)) wake();
          queued += 1;
          callback(null, `OK: queued as sink-${queued}`);
        };
        if (opts.dataDelayMs) setTimeout(finish, opts.dataDelayMs);
        else finish();
      });
    },
  };
  const server = new SMTPServer(options);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  // An aborted client (a killed server instance) is that client's problem, not the sink's.
  server.on('error', () => {});
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    url: `smtp://127.0.0.1:${port}`,
    messages,
    waitForCount(count, timeoutMs = 20_000) {
      return new Promise((resolve, reject) => {
        const deadline = setTimeout(
          () => reject(new Error(`${messages.length} of ${count} messages arrived in ${timeoutMs} ms`)),
          timeoutMs,
        );
        const check = () => {
          if (messages.length >= count) {
            clearTimeout(deadline);
            resolve(messages);
          } else waiters.push(check);
        };
        check();
      });
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
