// One-click unsubscribe (RFC 8058) for every email that is not a safety message: the link
// names the account or the follower, signed with a key the server keeps in DATA_DIR, so it
// needs no sign-in and cannot be forged for someone else.
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { followers, notificationSettings, type OutboxRow } from '../../db/schema/messages';
import { BadRequestError } from '../../lib/errors';
import { readOrCreateSecretFile } from '../../lib/secret-file';

export const UNSUBSCRIBE_KEY_FILE = 'unsubscribe.key';

export type UnsubscribeKind = 'user' | 'follower';
export type UnsubscribeSubject = { kind: UnsubscribeKind; id: string };
type Subject = UnsubscribeSubject;

export function loadUnsubscribeKey(dataDir: string): string {
  return readOrCreateSecretFile(
    dataDir,
    UNSUBSCRIBE_KEY_FILE,
    () => randomBytes(32).toString('hex'),
    (k) => k.length >= 32,
  );
}

const sign = (key: string, text: string) => createHmac('sha256', key).update(text).digest('base64url');

/** `base64url(kind:id).HMAC-SHA256(kind:id)`: who it is for, readable, and unforgeable without the key. */
export function unsubscribeToken(kind: UnsubscribeKind, id: string, key: string): string {
  const text = `${kind}:${id}`;
  return `${Buffer.from(text).toString('base64url')}.${sign(key, text)}`;
}

/** The link for a row's recipient, or null when the row names neither an account nor a follower. */
export function unsubscribeUrl(key: string, publicUrl: string, row: Pick<OutboxRow, 'userId' | 'followerId'>) {
  const subject: Subject | null = row.followerId
    ? { kind: 'follower', id: row.followerId }
    : row.userId
      ? { kind: 'user', id: row.userId }
      : null;
  const base = publicUrl.replace(/\/+$/, '');
  return subject ? `${base}/api/unsubscribe?token=${unsubscribeToken(subject.kind, subject.id, key)}` : null;
}

const INVALID = 'This unsubscribe link is invalid. Change your email choices in My Profile instead.';

/** Who a token names, or a 400 when it is not one this server signed. */
export function readUnsubscribeToken(key: string, token: string): Subject {
  const [encoded, mac, extra] = token.split('.');
  if (extra !== undefined) throw new BadRequestError(INVALID, 'UNSUBSCRIBE_INVALID');
  if (!encoded || !mac) throw new BadRequestError(INVALID, 'UNSUBSCRIBE_INVALID');
  const text = Buffer.from(encoded, 'base64url').toString();
  const expected = Buffer.from(sign(key, text));
  const given = Buffer.from(mac);
  if (expected.length !== given.length || !timingSafeEqual(expected, given))
    throw new BadRequestError(INVALID, 'UNSUBSCRIBE_INVALID');
  const match = /^(user|follower):([0-9a-f-]{36})$/.exec(text);
  if (!match) throw new BadRequestError(INVALID, 'UNSUBSCRIBE_INVALID');
  return { kind: match[1] as Subject['kind'], id: match[2] as string };
}

/** Email off for the account (its other channels stay), or the follower removed. */
export async function unsubscribe(db: Db, subject: Subject): Promise<void> {
  if (subject.kind === 'follower') {
    await db.delete(followers).where(eq(followers.id, subject.id));
    return;
  }
  await db
    .insert(notificationSettings)
    .values({ userId: subject.id, email: false })
    .onConflictDoUpdate({ target: notificationSettings.userId, set: { email: false, updatedAt: new Date() } })
    .catch((err: unknown) => {
      // The account was deleted since: nothing left to unsubscribe. Drizzle wraps the driver's error.
      const e = err as { code?: string; cause?: { code?: string } };
      if (e.code === '23503' || e.cause?.code === '23503') return;
      throw err;
    });
}

// The pages a person sees: mail clients open the link with GET, which must change nothing,
// so it shows a button that POSTs (the same request a one-click client sends). The site's
// CSP allows no inline style; these pages carry their own, allowed by its hash alone.
const PAGE_STYLE =
  'html{background:#0c0a09;color:#f7f1e8;font:1.125rem/1.6 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}' +
  'main{max-width:36rem;margin:0 auto;padding:3rem 1.25rem}' +
  '.band{color:#fbbf24;font-weight:900;letter-spacing:.2em;text-transform:uppercase;font-size:.85rem;border-bottom:3px solid #f97316;padding-bottom:.5rem;margin:0 0 1.5rem}' +
  'h1{margin:0 0 1rem;font-size:1.75rem;line-height:1.2;color:#fb923c;text-transform:uppercase;overflow-wrap:anywhere}' +
  'button,a.button{display:inline-block;margin-top:1rem;padding:.85rem 1.4rem;border:0;border-radius:.5rem;background:#f97316;color:#0c0a09;font:inherit;font-weight:800;text-transform:uppercase;text-decoration:none;cursor:pointer}' +
  'a{color:#fbbf24}';

export const UNSUBSCRIBE_PAGE_CSP = `default-src 'none'; style-src 'sha256-${createHash('sha256').update(PAGE_STYLE).digest('base64')}'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`;

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style>${PAGE_STYLE}</style>
</head>
<body>
<main>
<p class="band">Mindanao Warriors Rally</p>
${body}
</main>
</body>
</html>
`;
}

/** The confirm page (GET): nothing changes until the button is pressed. */
export function unsubscribeConfirmPage(subject: Subject, token: string): string {
  const what =
    subject.kind === 'follower'
      ? 'You will stop following this rider by email.'
      : 'You will get no more emails about your registration and your rides. Safety messages still reach you.';
  return page(
    'Unsubscribe',
    `<h1>Stop these emails?</h1>
<p>${what}</p>
<form method="post" action="/api/unsubscribe?token=${encodeURIComponent(token)}">
<input type="hidden" name="List-Unsubscribe" value="One-Click">
<button type="submit">Unsubscribe</button>
</form>`,
  );
}

/** The answer to the POST (a one-click client ignores it; a person who pressed the button reads it). */
export function unsubscribedPage(subject: Subject): string {
  const what =
    subject.kind === 'follower'
      ? "You no longer follow this rider. Follow again from the rider's page whenever you like."
      : 'Email is off for your account. Turn it back on in My Profile, under notifications.';
  return page(
    'Unsubscribed',
    `<h1>You are unsubscribed</h1>\n<p>${what}</p>\n<p><a class="button" href="/">Back to the rally</a></p>`,
  );
}
