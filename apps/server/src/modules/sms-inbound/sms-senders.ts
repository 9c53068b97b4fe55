// What one phone number may get from the SMS line, counted in the database so every server
// instance keeps one count and concurrent texts cannot overshoot it (DESIGN.md §10):
//   - wrong SMS PINs: five within an hour of the first hold all the number's texts for
//     review until that hour is over;
//   - replies to texts that did nothing (help, refusals, scans held for review): three a day.
// Both are windows in rate_limit_hits (keyed `sms-pin <number>`, `sms-reply <number>`),
// opened by their first use and swept with the other ended windows; a slot is taken by one
// conditional upsert, whose row lock orders concurrent texts of a number.
import {
  SMS_PIN_WINDOW_MS,
  SMS_PIN_WRONG_MAX,
  SMS_REPLIES_PER_DAY,
  SMS_REPLY_WINDOW_MS,
} from '@rally/shared/catalog/messages';
import { and, eq, gt, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { rateLimitHits } from '../../db/schema/rate-limits';
import { takeSlot } from '../../lib/rate-limit-store';

const pinKey = (sender: string) => `sms-pin ${sender}`;

/**
 * Reserves the judging of one PIN a text from `sender` carries, before it is checked: false
 * while the number has spent its wrong PINs for the hour (then even the right PIN is held).
 * Reserving first keeps concurrent guesses to the limit; a right PIN gives its slot back.
 */
export const reservePinGuess = (db: DbOrTx, sender: string) =>
  takeSlot(db, pinKey(sender), SMS_PIN_WRONG_MAX, SMS_PIN_WINDOW_MS);

/** The PIN was right: it was no wrong guess. */
export async function returnPinGuess(db: DbOrTx, sender: string): Promise<void> {
  await db
    .update(rateLimitHits)
    .set({ hits: sql`${rateLimitHits.hits} - 1` })
    .where(and(eq(rateLimitHits.key, pinKey(sender)), gt(rateLimitHits.hits, 0)));
}

/** Takes one of the number's replies to texts that did nothing, for the day. */
export const takeCourtesyReply = (db: DbOrTx, sender: string) =>
  takeSlot(db, `sms-reply ${sender}`, SMS_REPLIES_PER_DAY, SMS_REPLY_WINDOW_MS);
