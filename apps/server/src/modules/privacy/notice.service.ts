// The privacy notice and the terms (DESIGN.md §12), published together as one numbered
// version: what `consentVersion` names. Version 1 holds the default texts and is made the
// first time anything needs it; every publication after that is the organiser's.
import { DEFAULT_PRIVACY_TEXT, DEFAULT_TERMS_TEXT } from '@rally/shared/catalog/privacy-notice-default';
import type { PutPrivacyNoticeRequest } from '@rally/shared/contracts/privacy';
import { desc, eq, lte, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client';
import { privacyNotices } from '../../db/schema/privacy';
import type { Actor } from '../../lib/actor';
import { ConflictError, NotFoundError } from '../../lib/errors';
import { recordActivity } from '../activities/activities.service';

export type NoticeRow = typeof privacyNotices.$inferSelect;

/** One lock for making version 1 and for publishing: versions are made one at a time. */
const lockNotices = (tx: DbOrTx) => tx.execute(sql`select pg_advisory_xact_lock(hashtext('privacy-notices'))`);

async function latestNotice(db: DbOrTx): Promise<NoticeRow | undefined> {
  const [row] = await db.select().from(privacyNotices).orderBy(desc(privacyNotices.version)).limit(1);
  return row;
}

/**
 * The current notice, version 1 made first if there is none yet. Two first readers at once
 * (two instances, or a registration and a page load) make one row: under the lock, the
 * insert happens only while the table is empty.
 */
export async function currentNotice(db: DbOrTx): Promise<NoticeRow> {
  const found = await latestNotice(db);
  if (found) return found;
  await db.transaction(async (tx) => {
    await lockNotices(tx);
    await tx.execute(sql`insert into ${privacyNotices} (privacy_text, terms_text)
      select ${DEFAULT_PRIVACY_TEXT}, ${DEFAULT_TERMS_TEXT}
      where not exists (select 1 from ${privacyNotices})`);
  });
  const made = await latestNotice(db);
  if (!made) throw new Error('the privacy notice could not be made');
  return made;
}

/** A published version, or 404. */
export async function noticeOfVersion(db: DbOrTx, version: number): Promise<NoticeRow> {
  await currentNotice(db);
  const [row] = await db.select().from(privacyNotices).where(eq(privacyNotices.version, version)).limit(1);
  if (!row) throw new NotFoundError(`There is no version ${version} of the privacy notice`, 'NOTICE_NOT_FOUND');
  return row;
}

export interface TextOrigin {
  version: number;
  publishedAt: Date;
}

/**
 * Where each of a version's two texts was last changed: the oldest version of the unbroken
 * run of versions up to this one carrying the same text. Compared by digest, so the texts
 * themselves are not read (there are only ever a few versions).
 */
export async function textOrigins(db: DbOrTx, notice: NoticeRow): Promise<{ privacy: TextOrigin; terms: TextOrigin }> {
  const rows = await db
    .select({
      version: privacyNotices.version,
      publishedAt: privacyNotices.publishedAt,
      privacy: sql<string>`md5(${privacyNotices.privacyText})`,
      terms: sql<string>`md5(${privacyNotices.termsText})`,
    })
    .from(privacyNotices)
    .where(lte(privacyNotices.version, notice.version))
    .orderBy(desc(privacyNotices.version));
  const originOf = (key: 'privacy' | 'terms'): TextOrigin => {
    let origin: TextOrigin = { version: notice.version, publishedAt: notice.publishedAt };
    const text = rows[0]?.[key];
    for (const row of rows) {
      if (row[key] !== text) break;
      origin = { version: row.version, publishedAt: row.publishedAt };
    }
    return origin;
  };
  return { privacy: originOf('privacy'), terms: originOf('terms') };
}

/**
 * Publishes both texts as the next version. Refused (409 NOTICE_UNCHANGED) when both are
 * what the current version says already: a new number would ask every rider again for
 * nothing.
 */
export async function publishNotice(db: Db, body: PutPrivacyNoticeRequest, actor: Actor): Promise<NoticeRow> {
  await currentNotice(db);
  return db.transaction(async (tx) => {
    await lockNotices(tx);
    const previous = await latestNotice(tx);
    if (!previous) throw new Error('the privacy notice vanished');
    const privacyChanged = previous.privacyText !== body.privacyText;
    const termsChanged = previous.termsText !== body.termsText;
    if (!privacyChanged && !termsChanged)
      throw new ConflictError(
        `Nothing to publish: the privacy notice and the terms are the same as version ${previous.version}`,
        'NOTICE_UNCHANGED',
      );
    const [published] = await tx
      .insert(privacyNotices)
      .values({
        privacyText: body.privacyText,
        termsText: body.termsText,
        publishedBy: actor.id,
        publishedByName: actor.name,
      })
      .returning();
    if (!published) throw new Error('the privacy notice was not published');
    const changed = [privacyChanged && 'privacy notice', termsChanged && 'terms'].filter(Boolean).join(' and ');
    await recordActivity(tx, {
      type: 'privacy_notice_published',
      actorId: actor.id,
      actorName: actor.name,
      description: `${actor.name} published version ${published.version} of the privacy notice and terms`,
      details: `Changed: ${changed} (was version ${previous.version}). Riders are asked to accept it at their next sign-in.`,
      metadata: { privacyNoticeVersion: published.version, privacyChanged, termsChanged },
    });
    return published;
  });
}
