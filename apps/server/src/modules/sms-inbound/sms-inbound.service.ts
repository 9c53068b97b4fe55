// SMS in (DESIGN.md §10): a text the organiser's phone received, forwarded by its webhook.
// An SOS from a rider's registered phone opens an incident as the SOS button does (marked as
// from a sender nobody verified); a marshal's `<station code> <rider numbers> PIN <pin>`
// records scans as the scanner does, and without the right PIN keeps them flagged for review
// (a sender's number can be forged); anything else gets the help text back.
//
// Replies to texts that did nothing (help, refusals, scans held) are limited: three a number
// a day, none abroad to a number of no account, none to a text that looks automated or
// repeats the number's last hour (a loop with an auto-responder would spend the SIM's credit).
//
// Each webhook is recorded by its id first (`received`), then acted on, then marked with its
// outcome together with the reply, in one transaction. The actions take ids made from the
// webhook's id, so they are idempotent: a repeat of a finished webhook changes nothing, and a
// repeat of one that stopped midway (a crash) finishes it without doubling anything. Only
// the delivery that marks the outcome writes the reply, so it is sent once.
import { INCIDENT_KIND_LABELS } from '@rally/shared/catalog/event-day';
import {
  INBOUND_TEXT_MAX,
  type InboundTextOutcome,
  SMS_HELP_TEXT,
  SMS_HOME_COUNTRY_CODE,
} from '@rally/shared/catalog/messages';
import type { InboundSmsWebhook } from '@rally/shared/contracts/messages';
import { PERMISSIONS } from '@rally/shared/permissions';
import { and, asc, eq, gte, inArray, lte, ne } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { entries } from '../../db/schema/entries';
import { stations } from '../../db/schema/event-day';
import { inboundTexts, smsPins } from '../../db/schema/messages';
import { users } from '../../db/schema/users';
import type { AuthContext } from '../../lib/authorize';
import { inEdition } from '../../lib/edition-of';
import { AppError } from '../../lib/errors';
import { holdsNumber, toE164 } from '../../lib/phone-numbers';
import { ownEntry } from '../../lib/riders';
import { sendSos } from '../incidents/incidents.service';
import type { Messenger } from '../messages/messenger';
import { enqueueMessages } from '../messages/outbox';
import { ingestScans } from '../scans/scans.service';
import { readEventSettings } from '../settings/settings.service';
import { cleanText, looksAutomated, maskPin, nameUuid, parseInboundText, scanWord, textShape } from './inbound-text';
import { holderOfPin } from './sms-pin.service';
import { reservePinGuess, returnPinGuess, takeCourtesyReply } from './sms-senders';

export interface InboundResult {
  outcome: InboundTextOutcome;
  /** A webhook already handled: nothing was done this time. */
  repeat: boolean;
  /** Whether a text back was queued. */
  replied: boolean;
}

interface Reply {
  text: string;
  userId?: string;
  incidentId?: string;
  /**
   * A reply to a text that did nothing (help, a refusal, scans held for review): limited,
   * as anyone can send such texts. The answer to an SOS or to counted scans always goes.
   */
  limited?: boolean;
}

/** Texts from one number within this long that have one shape: a machine repeating itself. */
const REPEAT_WINDOW_MS = 60 * 60_000;

interface Handled {
  outcome: InboundTextOutcome;
  reply: Reply | null;
}

const accountColumns = {
  userId: users.id,
  role: users.role,
  firstName: users.firstName,
  lastName: users.lastName,
  email: users.email,
  phoneNumber: users.phoneNumber,
  riderNumber: entries.riderNumber,
  verificationStatus: entries.status,
};
const selectAccounts = (db: Db) => db.select(accountColumns).from(users).leftJoin(entries, ownEntry);
type Account = Awaited<ReturnType<typeof selectAccounts>>[number];

/** The account acting through a text, as the services take a signed-in one. */
const authOf = (account: Account, webhookId: string): AuthContext => ({
  sessionId: `sms:${webhookId}`,
  userId: account.userId,
  role: account.role,
  firstName: account.firstName,
  lastName: account.lastName,
  email: account.email,
  verificationStatus: account.verificationStatus,
});

async function hotlineLine(db: Db): Promise<string> {
  const { hotline } = await readEventSettings(db);
  return hotline ? `Hotline: ${hotline}.` : 'If you can, call 911.';
}

export async function handleInboundText(
  db: Db,
  hook: InboundSmsWebhook,
  deps: { messenger: Messenger; now: Date },
): Promise<InboundResult> {
  const text = cleanText(hook.payload.message);
  const from = cleanText(hook.payload.phoneNumber);
  const receivedAt = new Date(hook.payload.receivedAt);
  // The PIN is kept hashed only: never with the text.
  const kept = maskPin(text);
  const [claimed] = await db
    .insert(inboundTexts)
    .values({
      webhookId: hook.id,
      phoneNumber: from,
      message: kept,
      receivedAt,
      outcome: 'received',
    })
    .onConflictDoNothing({ target: inboundTexts.webhookId })
    .returning({ webhookId: inboundTexts.webhookId });
  if (!claimed) {
    const [known] = await db
      .select({ outcome: inboundTexts.outcome })
      .from(inboundTexts)
      .where(eq(inboundTexts.webhookId, hook.id));
    if (known && known.outcome !== 'received') {
      return { outcome: known.outcome as InboundTextOutcome, repeat: true, replied: false };
    }
    // Recorded but never finished (the server stopped midway): everything below is idempotent.
  }

  const sender = toE164(hook.payload.phoneNumber);
  const handled = await understand(db, hook, text, sender, deps);
  return db.transaction(async (tx) => {
    const [done] = await tx
      .update(inboundTexts)
      .set({ outcome: handled.outcome })
      .where(and(eq(inboundTexts.webhookId, hook.id), eq(inboundTexts.outcome, 'received')))
      .returning({ webhookId: inboundTexts.webhookId });
    // Another delivery of this webhook finished first: it sent the reply.
    if (!done) return { outcome: handled.outcome, repeat: true, replied: false };
    const reply = handled.reply;
    if (!reply || !sender || !deps.messenger.on.has('sms'))
      return { outcome: handled.outcome, repeat: false, replied: false };
    if (reply.limited && !(await mayReply(tx, { webhookId: hook.id, from, text, kept, receivedAt, sender })))
      return { outcome: handled.outcome, repeat: false, replied: false };
    await enqueueMessages(tx, [
      {
        channel: 'sms',
        template: 'sms_reply',
        address: sender,
        data: { text: reply.text },
        userId: reply.userId ?? null,
        incidentId: reply.incidentId ?? null,
      },
    ]);
    return { outcome: handled.outcome, repeat: false, replied: true };
  });
}

/**
 * Whether a limited reply may go (see the top of the file). The count is taken last, in the
 * transaction that queues the reply, so only a reply sent spends one.
 */
async function mayReply(
  tx: Tx,
  t: { webhookId: string; from: string; text: string; kept: string; receivedAt: Date; sender: string },
): Promise<boolean> {
  if (looksAutomated(t.text)) return false;
  if (!t.sender.startsWith(SMS_HOME_COUNTRY_CODE)) {
    const [account] = await tx
      .select({ id: users.id })
      .from(users)
      .where(holdsNumber(users.phoneNumber, t.sender))
      .limit(1);
    if (!account) return false;
  }
  const earlier = await tx
    .select({ message: inboundTexts.message })
    .from(inboundTexts)
    .where(
      and(
        eq(inboundTexts.phoneNumber, t.from),
        ne(inboundTexts.webhookId, t.webhookId),
        gte(inboundTexts.receivedAt, new Date(t.receivedAt.getTime() - REPEAT_WINDOW_MS)),
        lte(inboundTexts.receivedAt, t.receivedAt),
      ),
    )
    .limit(50);
  const shape = textShape(t.kept);
  if (earlier.some((e) => textShape(e.message) === shape)) return false;
  return takeCourtesyReply(tx, t.sender);
}

async function understand(
  db: Db,
  hook: InboundSmsWebhook,
  text: string,
  sender: string | null,
  deps: { messenger: Messenger; now: Date },
): Promise<Handled> {
  const help = (problem: string | null = null): Handled => ({
    outcome: 'help',
    reply: { text: problem ? `${problem} ${SMS_HELP_TEXT}` : SMS_HELP_TEXT, limited: true },
  });
  if (text.length > INBOUND_TEXT_MAX) return help();
  const command = parseInboundText(text);
  if (command.kind === 'help') return help(command.problem);
  if (command.kind === 'sos') return sos(db, hook, sender, command, deps);
  return scans(db, hook, sender, command, deps, help);
}

async function sos(
  db: Db,
  hook: InboundSmsWebhook,
  sender: string | null,
  command: Extract<ReturnType<typeof parseInboundText>, { kind: 'sos' }>,
  deps: { messenger: Messenger },
): Promise<Handled> {
  const label = `rider #${command.riderNumber}`;
  const [rider] = await selectAccounts(db).where(eq(entries.riderNumber, command.riderNumber)).limit(1);
  // Only the rider's own registered phone opens an incident for them: anyone else could.
  if (!sender || !rider || toE164(rider.phoneNumber) !== sender) {
    return {
      outcome: 'sos_refused',
      reply: {
        text: `Sorry, this phone is not the registered number of ${label}, so no SOS was opened. ${await hotlineLine(db)}`,
        limited: true,
      },
    };
  }
  try {
    const { incident, joined } = await sendSos(
      db,
      authOf(rider, hook.id),
      { id: nameUuid(`${hook.id}:sos`), kind: command.incidentKind, ...(command.note ? { note: command.note } : {}) },
      deps.messenger,
      // Opened, for a missed SOS costs a life; marked, for the number may be forged.
      'sms',
    );
    const text = incident.muted
      ? `Your SOS (${label}) was saved, but it did not alert the marshals: the organisers have marked this account's SOS calls. ${await hotlineLine(db)}`
      : joined
        ? `Your SOS (${label}) was added to your open call; the race officials have it. Stay where you are if you can. ${await hotlineLine(db)}`
        : `Help is on the way: SOS for ${label} (${INCIDENT_KIND_LABELS[command.incidentKind]}) received. Stay where you are if you can. ${await hotlineLine(db)}`;
    return { outcome: 'sos', reply: { text, userId: rider.userId, incidentId: incident.id } };
  } catch (err) {
    // The hourly limits (429) and an id clash (409): the rider still needs a way to help.
    if (!(err instanceof AppError)) throw err;
    return {
      outcome: 'sos_refused',
      reply: {
        text: `Your SOS (${label}) could not be taken: too many calls. ${await hotlineLine(db)}`,
        userId: rider.userId,
        limited: true,
      },
    };
  }
}

async function scans(
  db: Db,
  hook: InboundSmsWebhook,
  sender: string | null,
  command: Extract<ReturnType<typeof parseInboundText>, { kind: 'scans' }>,
  deps: { messenger: Messenger; now: Date },
  help: (problem: string) => Handled,
): Promise<Handled> {
  // The accounts that may scan and hold this number, oldest first (a number shared by two
  // staff accounts: the PIN says which of them sent it).
  const holders = sender
    ? await db
        .select({ ...accountColumns, pinHash: smsPins.pinHash })
        .from(users)
        .leftJoin(entries, ownEntry)
        .leftJoin(smsPins, eq(smsPins.userId, users.id))
        .where(
          and(
            holdsNumber(users.phoneNumber, sender),
            inArray(users.role, [...PERMISSIONS.qr_scan]),
            eq(users.status, 'active'),
          ),
        )
        .orderBy(asc(users.createdAt))
        .limit(5)
    : [];
  const [claimed] = holders;
  if (!sender || !claimed) {
    return {
      outcome: 'scans_refused',
      reply: {
        text: 'Sorry, scans by text are taken only from a marshal’s registered phone. Riders in trouble: SOS <rider no.> <what happened>.',
        limited: true,
      },
    };
  }
  const [station] = await db
    .select({ id: stations.id, code: stations.code })
    .from(stations)
    .where(and(inEdition(stations.editionId), eq(stations.code, command.stationCode)))
    .limit(1);
  if (!station) return help(`No station has the code ${command.stationCode}.`);

  const check = await checkPin(db, sender, holders, command.pin);
  const marshal = check.holder ?? claimed;
  const scannedAt = new Date(hook.payload.receivedAt).toISOString();
  const items = command.riderNumbers.map((riderNumber, i) => ({
    id: nameUuid(`${hook.id}:scan:${i}`),
    stationId: station.id,
    riderNumber,
    scannedAt,
    deviceId: `sms ${sender}`,
    // Stored as `sms` (from): devices may only say camera or manual.
    source: 'manual' as const,
  }));
  const results = await ingestScans(db, items, authOf(marshal, hook.id), deps.now, deps.messenger, {
    source: 'sms',
    // Not proven to be the marshal's: kept for staff to review, never counted meanwhile.
    ...(check.holder ? {} : { flag: 'sms_unverified' as const }),
  });
  if (!check.holder) {
    const n = command.riderNumbers.length;
    return {
      outcome: 'scans_unverified',
      reply: {
        text: `${station.code}: ${n} ${n === 1 ? 'rider' : 'riders'} kept for review, not counted: ${unverifiedWhy(check.problem, station.code)}`,
        userId: claimed.userId,
        limited: true,
      },
    };
  }
  const summary = command.riderNumbers.map((n, i) => `${n} ${scanWord(results[i] ?? { status: 'invalid' })}`);
  return { outcome: 'scans', reply: { text: `${station.code}: ${summary.join(', ')}`, userId: marshal.userId } };
}

type PinProblem = 'missing' | 'unset' | 'wrong' | 'locked';

/** Why a text's scans were held, as the sender is told. */
function unverifiedWhy(problem: PinProblem, code: string): string {
  if (problem === 'missing')
    return `a text needs your SMS PIN (set it in My Profile). Send: ${code} <rider nos.> PIN <your PIN>.`;
  if (problem === 'unset') return 'no SMS PIN is set for this phone’s account: set one in My Profile.';
  if (problem === 'wrong') return 'wrong PIN.';
  return 'too many wrong PINs from this phone; its texts are held for review until the hour is over.';
}

/**
 * Which holder of the number the text's PIN belongs to. A PIN is judged only while the
 * number has wrong guesses left for the hour (reserved first, so concurrent texts cannot
 * guess past the limit); a right one gives its reservation back.
 */
async function checkPin<T extends { pinHash: string | null }>(
  db: Db,
  sender: string,
  holders: T[],
  pin: string | null,
): Promise<{ holder: T; problem?: never } | { holder?: never; problem: PinProblem }> {
  if (pin === null || pin === '') return { problem: 'missing' };
  // Nothing to guess: the marshal has not set a PIN yet (and no guess is counted).
  if (!holders.some((h) => h.pinHash)) return { problem: 'unset' };
  if (!(await reservePinGuess(db, sender))) return { problem: 'locked' };
  const holder = await holderOfPin(holders, pin);
  if (!holder) return { problem: 'wrong' };
  await returnPinGuess(db, sender);
  return { holder };
}
