// Deleting a user removes their contact data from what outlives the account, by the rules
// of personal-data.ts (who did what stays auditable): logs keep who did what (the name and
// rider number snapshots), while the email, phone, address and codes are cut out of
// activities, verification history, login activities, scans and texts received. Their
// entries, in every edition, go with the account (a cascade). Runs inside the deletion's transaction in two steps: the entries
// are found before the row goes (the delete sets their user references to null) and
// rewritten after it (a row rewritten first would make PostgreSQL re-check its other
// foreign keys during the delete's cascades, and fail).
import { eq, ilike, inArray, or, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { Tx } from '../../db/client';
import { activities } from '../../db/schema/activities';
import { entries, verificationHistory } from '../../db/schema/entries';
import { scans } from '../../db/schema/event-day';
import { inboundTexts } from '../../db/schema/messages';
import { erasureRequests } from '../../db/schema/privacy';
import { loginActivities } from '../../db/schema/security';
import { users } from '../../db/schema/users';
import { toE164, typedForms } from '../../lib/phone-numbers';

export const REMOVED = '[removed]';
/** What a deleted user's login attempts keep in the not-null email column. */
export const DELETED_EMAIL = 'deleted user';

// Values unique to the person (email, codes) are cut out of every entry: an entry about
// them may name them without pointing at their row (a reset asked for before the account
// existed). Shared-looking values (a phone, an address) only from their own entries, so
// another rider's "Davao City" stays.
const likePattern = (value: string) => `%${value.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
const jsonEscaped = (value: string) => JSON.stringify(value).slice(1, -1);

function scrubbed(column: SQL | AnyPgColumn, values: string[]): SQL {
  let expr: SQL = sql`${column}`;
  for (const v of values) expr = sql`replace(${expr}, ${v}, ${REMOVED})`;
  return expr;
}

/** Finds what the user left behind; call the returned function after the user's row is deleted. */
export async function forgetContactData(tx: Tx, userId: string): Promise<() => Promise<void>> {
  const [user] = await tx
    .select({
      email: users.email,
      phone: users.phoneNumber,
      address: users.address,
      emergencyNumber: users.emergencyContactNumber,
    })
    .from(users)
    .where(eq(users.id, userId))
    .limit(1);
  if (!user) return async () => {};
  const unique = [user.email, user.email.toLowerCase(), ...(await codesOf(tx, userId))].filter(
    (v): v is string => !!v && v.length >= 3,
  );
  const personal = [user.phone, user.address, user.emergencyNumber].filter(
    (v): v is string => !!v && v.trim().length >= 3,
  );
  const everything = [...new Set([...unique, ...personal])].sort((a, b) => b.length - a.length);
  const uniqueValues = [...new Set(unique)];

  const ids = async (rows: Promise<Array<{ id: string }>>) => (await rows).map((r) => r.id);
  const theirActivities = await ids(
    tx
      .select({ id: activities.id })
      .from(activities)
      .where(or(eq(activities.userId, userId), eq(activities.actorId, userId))),
  );
  // Entries about them: what they wrote and where they were (an SOS's note and position) go.
  const aboutThem = await ids(tx.select({ id: activities.id }).from(activities).where(eq(activities.userId, userId)));
  const theirHistory = await ids(
    tx
      .select({ id: verificationHistory.id })
      .from(verificationHistory)
      .where(or(eq(verificationHistory.userId, userId), inArray(verificationHistory.verificationCode, unique))),
  );
  const theirScans = await ids(tx.select({ id: scans.id }).from(scans).where(eq(scans.riderId, userId)));
  // Their erasure requests stay as the line saying what happened, without their own words.
  const theirRequests = await ids(
    tx.select({ id: erasureRequests.id }).from(erasureRequests).where(eq(erasureRequests.userId, userId)),
  );
  const theirLogins = await ids(
    tx
      .select({ id: loginActivities.id })
      .from(loginActivities)
      .where(
        or(eq(loginActivities.userId, userId), eq(sql`lower(${loginActivities.email})`, user.email.toLowerCase())),
      ),
  );

  return async () => {
    const mentions = uniqueValues.flatMap((v) => [
      ilike(activities.description, likePattern(v)),
      ilike(activities.details, likePattern(v)),
      ilike(activities.location, likePattern(v)),
      sql`${activities.metadata}::text ilike ${likePattern(jsonEscaped(v))}`,
    ]);
    const metadata = everything.reduce<SQL>(
      (expr, v) => sql`replace(${expr}, ${jsonEscaped(v)}, ${REMOVED})`,
      sql`${activities.metadata}::text`,
    );
    await tx
      .update(activities)
      .set({
        description: sql`${scrubbed(activities.description, everything)}`,
        details: sql`${scrubbed(activities.details, everything)}`,
        location: sql`case when ${activities.location} in ${personal.length ? personal : ['']} then null else ${scrubbed(activities.location, everything)} end`,
        metadata: sql`(${metadata})::jsonb`,
      })
      .where(or(theirActivities.length ? inArray(activities.id, theirActivities) : undefined, ...mentions));
    if (aboutThem.length > 0)
      await tx
        .update(activities)
        .set({ details: null, location: null, metadata: sql`${activities.metadata} - 'position'` })
        .where(inArray(activities.id, aboutThem));
    if (theirHistory.length > 0) {
      await tx
        .update(verificationHistory)
        .set({ verificationCode: null, notes: sql`${scrubbed(verificationHistory.notes, everything)}` })
        .where(inArray(verificationHistory.id, theirHistory));
    }
    if (theirLogins.length > 0) {
      await tx.update(loginActivities).set({ email: DELETED_EMAIL }).where(inArray(loginActivities.id, theirLogins));
    }
    // The codes a marshal's phone sent for them; the passage itself (number, time) stays.
    if (theirScans.length > 0) await tx.update(scans).set({ riderCode: null }).where(inArray(scans.id, theirScans));
    if (theirRequests.length > 0)
      await tx.update(erasureRequests).set({ note: null }).where(inArray(erasureRequests.id, theirRequests));
    const e164 = toE164(user.phone);
    if (e164) await tx.delete(inboundTexts).where(inArray(inboundTexts.phoneNumber, typedForms(e164)));
  };
}

/** Every rider and verification code the person had in any edition: cut out wherever mentioned. */
async function codesOf(tx: Tx, userId: string): Promise<string[]> {
  const result = (await tx.execute(sql`select distinct c.code from (
      select e.verification_code as code from ${entries} e where e.user_id = ${userId}
      union all select e.rider_code from ${entries} e where e.user_id = ${userId}
      union all select s.rider_code from ${scans} s where s.rider_id = ${userId}
    ) c where c.code is not null`)) as unknown as { rows: Array<{ code: string }> };
  return result.rows.map((r) => r.code);
}
