// Ingest of scan batches from marshals' devices. Each item is validated on
// its own; the device's UUID is the primary key, so a replayed batch stores nothing twice
// and answers `duplicate` with the first outcome. Doubtful scans are stored and flagged.
//
// Concurrency: the riders of a batch are locked (their users rows, in id order, so two
// batches cannot deadlock) before their earlier passages are read. Two devices syncing
// the same rider at the same station therefore run one after the other: the first is
// accepted, the second sees it and is flagged as a re-scan.
import {
  RALLY_TIME_ZONE,
  SCAN_FLAG_LABELS,
  type ScanFlagReasonName,
  STATION_KIND_LABELS,
} from '@rally/shared/catalog/event-day';
import { type ScanItem, type ScanResult, scanItem } from '@rally/shared/contracts/scans';
import { PERMISSIONS } from '@rally/shared/permissions';
import { and, asc, eq, inArray, or } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client';
import { entries } from '../../db/schema/entries';
import { type StationRow, scans, stations } from '../../db/schema/event-day';
import { users } from '../../db/schema/users';
import type { AuthContext } from '../../lib/authorize';
import { inEdition } from '../../lib/edition-of';
import { publishEvents, type RallyEvent } from '../../lib/event-bus';
import { codedRiderColumns, ownEntry } from '../../lib/riders';
import { displayName, fullName } from '../../lib/sql-text';
import { type ActivityInput, recordActivities } from '../activities/activities.service';
import { recordCompletions } from '../course/completion';
import { countsAsPassage, recomputeCheckpoints } from '../course/passages';
import { type Messenger, SILENT_MESSENGER } from '../messages/messenger';
import { notifyFollowers } from '../messages/notify';
import { flagFor, notePassage, type PassageState, type Rider } from './scan-flags';

type Slot =
  | { kind: 'done'; result: ScanResult }
  | { kind: 'repeat'; of: number; id: string }
  | { kind: 'item'; item: ScanItem; station: StationRow; rider: Rider | null };

const riderRef = (r: Pick<Rider, 'id' | 'riderNumber' | 'kitName'>) => ({
  id: r.id,
  riderNumber: r.riderNumber,
  kitName: r.kitName,
});

function invalid(raw: unknown, message: string): ScanResult {
  const id = (raw as { id?: unknown } | null)?.id;
  return { id: typeof id === 'string' ? id.slice(0, 100) : '', status: 'invalid', message };
}

function itemError(raw: unknown): string | null {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return 'A scan must be an object';
  const parsed = scanItem.safeParse(raw);
  if (parsed.success) return null;
  const issue = parsed.error.issues[0];
  if (!issue) return 'The scan is invalid';
  const field = issue.path.map(String).join('.') || 'scan';
  return /^Invalid input/.test(issue.message) ? `${field} is invalid` : issue.message;
}

async function resolveRiders(db: Db, items: ScanItem[]) {
  const codes = [...new Set(items.flatMap((i) => (i.riderCode === undefined ? [] : [i.riderCode])))];
  const numbers = [...new Set(items.flatMap((i) => (i.riderNumber === undefined ? [] : [i.riderNumber])))];
  if (codes.length === 0 && numbers.length === 0) return { byCode: new Map<string, Rider>(), byNumber: new Map() };
  const rows: Rider[] = await db
    .select({ ...codedRiderColumns, category: entries.category, status: users.status })
    .from(users)
    .leftJoin(entries, ownEntry)
    .where(
      or(
        codes.length > 0 ? inArray(entries.riderCode, codes) : undefined,
        numbers.length > 0 ? inArray(entries.riderNumber, numbers) : undefined,
      ),
    );
  const byCode = new Map<string, Rider>();
  const byNumber = new Map<number, Rider>();
  for (const r of rows) {
    if (r.riderCode) byCode.set(r.riderCode, r);
    if (r.riderNumber !== null) byNumber.set(r.riderNumber, r);
  }
  return { byCode, byNumber };
}

/** Scans the server read itself: what is stored of where they came from. */
export interface ServerScanSource {
  source: 'sms';
  flag?: 'sms_unverified';
}

/**
 * `from`: for scans the server read itself (a marshal's text, modules/sms-inbound): the
 * source stored in place of the items' own (devices may only say camera or manual), and a
 * flag every scan of the batch is kept under whatever else holds (a text without its
 * sender's SMS PIN: `sms_unverified`, never counted until staff accept it).
 */
export async function ingestScans(
  db: Db,
  raw: unknown[],
  submitter: AuthContext,
  now = new Date(),
  messenger: Messenger = SILENT_MESSENGER,
  from?: ServerScanSource,
) {
  const slots: Slot[] = [];
  const firstIndex = new Map<string, number>();
  const valid: Array<{ index: number; item: ScanItem }> = [];
  for (const [index, value] of raw.entries()) {
    const error = itemError(value);
    if (error) {
      slots.push({ kind: 'done', result: invalid(value, error) });
      continue;
    }
    const item = scanItem.parse(value);
    const earlier = firstIndex.get(item.id);
    if (earlier !== undefined) {
      slots.push({ kind: 'repeat', of: earlier, id: item.id });
      continue;
    }
    firstIndex.set(item.id, index);
    valid.push({ index, item });
    // Filled in below once its station and rider are known.
    slots.push({ kind: 'done', result: { id: item.id, status: 'invalid', message: 'pending' } });
  }

  // A scan is written into the current edition, so its station is the current edition's.
  const stationRows = valid.length
    ? await db
        .select()
        .from(stations)
        .where(
          and(inEdition(stations.editionId), inArray(stations.id, [...new Set(valid.map((v) => v.item.stationId))])),
        )
    : [];
  const stationById = new Map(stationRows.map((s) => [s.id, s]));
  const { byCode, byNumber } = await resolveRiders(
    db,
    valid.map((v) => v.item),
  );
  // The marshal who held the phone (a scan made offline names them) is believed only when
  // that account may scan: any other id (a rider's, an officer's, an admin's the marshal wants
  // to blame, one deleted since) is not kept, and the scan is the submitter's. The submitter is
  // stored beside it either way (scans.submitted_by, and the activity's metadata).
  const recorderIds = [...new Set(valid.flatMap((v) => (v.item.recordedBy ? [v.item.recordedBy] : [])))];
  const recorders = new Map(
    (recorderIds.length
      ? await db
          .select({ id: users.id, firstName: users.firstName, lastName: users.lastName })
          .from(users)
          .where(and(inArray(users.id, recorderIds), inArray(users.role, [...PERMISSIONS.qr_scan])))
      : []
    ).map((u) => [u.id, fullName(u.firstName, u.lastName)]),
  );
  const submitterName = fullName(submitter.firstName, submitter.lastName);
  recorders.set(submitter.userId, submitterName);
  const pending: Array<{ index: number; item: ScanItem; station: StationRow; rider: Rider | null }> = [];
  for (const { index, item } of valid) {
    const station = stationById.get(item.stationId);
    if (!station) {
      slots[index] = { kind: 'done', result: { id: item.id, status: 'invalid', message: 'Unknown station' } };
      firstIndex.delete(item.id);
      continue;
    }
    const rider =
      (item.riderCode !== undefined ? byCode.get(item.riderCode) : byNumber.get(item.riderNumber ?? -1)) ?? null;
    pending.push({ index, item, station, rider });
    slots[index] = { kind: 'item', item, station, rider };
  }

  if (pending.length > 0) {
    await db.transaction((tx) => storeScans(tx, pending, slots, submitter, recorders, now, messenger, from));
  }

  return slots.map((slot, index): ScanResult => {
    if (slot.kind === 'done') return slot.result;
    if (slot.kind === 'repeat') {
      const first = slots[slot.of];
      const original = first?.kind === 'done' ? first.result : undefined;
      if (!original || original.status === 'invalid') {
        return invalid({ id: slot.id }, original?.message ?? 'The scan is invalid');
      }
      const outcome = original.status === 'duplicate' ? original.original : original.status;
      return { ...original, status: 'duplicate', original: outcome as 'accepted' | 'flagged' };
    }
    throw new Error(`scan ${index} was not stored`);
  });
}

async function storeScans(
  tx: Tx,
  pending: Array<{ index: number; item: ScanItem; station: StationRow; rider: Rider | null }>,
  slots: Slot[],
  submitter: AuthContext,
  recorders: Map<string, string>,
  now: Date,
  messenger: Messenger,
  from: ServerScanSource | undefined,
) {
  const recorderOf = (item: ScanItem) =>
    item.recordedBy && recorders.has(item.recordedBy) ? item.recordedBy : submitter.userId;
  const submitted = { id: submitter.userId, name: recorders.get(submitter.userId) ?? '' };
  const riderIds = [...new Set(pending.flatMap((p) => (p.rider ? [p.rider.id] : [])))].sort();
  if (riderIds.length > 0) {
    await tx
      .select({ id: users.id })
      .from(users)
      .where(inArray(users.id, riderIds))
      .orderBy(asc(users.id))
      .for('no key update');
  }
  const ids = pending.map((p) => p.item.id);
  // By the device's id, unique across editions (the key): a replay after a rollover is still
  // the duplicate of the scan it stored, with that scan's outcome.
  const existing = new Map(
    (
      await tx
        .select({ id: scans.id, status: scans.status, reason: scans.reason })
        .from(scans)
        .where(inArray(scans.id, ids))
    ).map((s) => [s.id, s]),
  );
  const state: PassageState = { stations: new Map(), highest: new Map() };
  if (riderIds.length > 0) {
    const passed = await tx
      .select({ riderId: scans.riderId, id: stations.id, day: stations.day, order: stations.order })
      .from(scans)
      .innerJoin(stations, and(eq(stations.id, scans.stationId), eq(stations.editionId, scans.editionId)))
      .where(and(inEdition(scans.editionId), inArray(scans.riderId, riderIds), countsAsPassage));
    for (const p of passed) if (p.riderId) notePassage(state, p.riderId, p);
  }

  const rows: Array<typeof scans.$inferInsert> = [];
  const outcomes = new Map<
    string,
    { index: number; status: 'accepted' | 'flagged'; reason: ScanFlagReasonName | null }
  >();
  for (const p of pending) {
    const { item, station, rider } = p;
    const known = existing.get(item.id);
    if (known) {
      slots[p.index] = {
        kind: 'done',
        result: {
          id: item.id,
          status: 'duplicate',
          original: known.status,
          ...(known.reason ? { reason: known.reason } : {}),
          ...(rider ? { rider: riderRef(rider) } : {}),
        },
      };
      continue;
    }
    const reason = from?.flag ?? flagFor(item, station, rider, state, now);
    if (!reason && rider) notePassage(state, rider.id, station);
    rows.push({
      id: item.id,
      stationId: station.id,
      riderCode: item.riderCode ?? null,
      riderNumber: item.riderNumber ?? null,
      riderId: rider?.id ?? null,
      scannedAt: new Date(item.scannedAt),
      receivedAt: now,
      deviceId: item.deviceId,
      source: from?.source ?? item.source,
      recordedBy: recorderOf(item),
      submittedBy: submitter.userId,
      status: reason ? 'flagged' : 'accepted',
      reason,
    });
    outcomes.set(item.id, { index: p.index, status: reason ? 'flagged' : 'accepted', reason });
  }

  const inserted = new Set<string>();
  if (rows.length > 0) {
    const back = await tx
      .insert(scans)
      .values(rows)
      .onConflictDoNothing({ target: scans.id })
      .returning({ id: scans.id });
    for (const r of back) inserted.add(r.id);
  }
  // An id another request stored between our read and our insert: answer with its outcome.
  const raced = rows.filter((r) => !inserted.has(r.id as string)).map((r) => r.id as string);
  const racedRows = raced.length
    ? await tx
        .select({ id: scans.id, status: scans.status, reason: scans.reason })
        .from(scans)
        .where(inArray(scans.id, raced))
    : [];
  const racedById = new Map(racedRows.map((r) => [r.id, r]));

  const log: ActivityInput[] = [];
  const counted: string[] = [];
  const finishes: Array<{ riderId: string; stationId: string }> = [];
  const events: RallyEvent[] = [];
  /** Each rider's latest passage on the road in this batch: what their followers hear. */
  const roadPassages = new Map<string, { rider: Rider; station: StationRow; at: Date }>();
  for (const p of pending) {
    const outcome = outcomes.get(p.item.id);
    if (!outcome) continue;
    const rider = p.rider ? { rider: riderRef(p.rider) } : {};
    if (inserted.has(p.item.id)) events.push(scanEvent(p, outcome));
    if (!inserted.has(p.item.id)) {
      const first = racedById.get(p.item.id);
      slots[p.index] = {
        kind: 'done',
        result: {
          id: p.item.id,
          status: 'duplicate',
          original: first?.status ?? outcome.status,
          ...(first?.reason ? { reason: first.reason } : {}),
          ...rider,
        },
      };
      continue;
    }
    if (outcome.reason) {
      slots[p.index] = {
        kind: 'done',
        result: {
          id: p.item.id,
          status: 'flagged',
          reason: outcome.reason,
          message: SCAN_FLAG_LABELS[outcome.reason],
          ...rider,
        },
      };
      continue;
    }
    slots[p.index] = { kind: 'done', result: { id: p.item.id, status: 'accepted', ...rider } };
    if (p.rider) {
      counted.push(p.rider.id);
      if (p.station.kind === 'finish') finishes.push({ riderId: p.rider.id, stationId: p.station.id });
      const at = new Date(p.item.scannedAt);
      const before = roadPassages.get(p.rider.id);
      if (ROAD_STATIONS.has(p.station.kind) && (!before || at >= before.at))
        roadPassages.set(p.rider.id, { rider: p.rider, station: p.station, at });
      log.push(
        passageActivity(p.rider, p.station, { id: p.item.id, recordedBy: recorderOf(p.item) }, recorders, submitted),
      );
    }
  }
  await recordActivities(tx, log);
  await recomputeCheckpoints(tx, counted);
  // Both fire when this transaction commits: every open board hears of the scans at once.
  await publishEvents(tx, events);
  const finishers = new Set(await recordCompletions(tx, finishes, now));
  await tellFollowers(tx, messenger, roadPassages, finishers);
}

/** Where followers hear of a passage: on the road, not the kit tent or the bike check. */
const ROAD_STATIONS = new Set<StationRow['kind']>(['start', 'checkpoint', 'finish']);

const clockTime = new Intl.DateTimeFormat('en-PH', { timeZone: RALLY_TIME_ZONE, hour: 'numeric', minute: '2-digit' });

/**
 * Followers hear one message per rider per batch (a phone syncing an hour offline sends one,
 * not twenty): the finish for a rider this batch made a finisher, else the latest passage.
 */
async function tellFollowers(
  tx: Tx,
  messenger: Messenger,
  passages: ReadonlyMap<string, { rider: Rider; station: StationRow; at: Date }>,
  finishers: ReadonlySet<string>,
) {
  if (passages.size === 0 && finishers.size === 0) return;
  const passed = new Map<string, Record<string, unknown>>();
  const finished = new Map<string, Record<string, unknown>>();
  for (const [riderId, { rider, station, at }] of passages) {
    const data = {
      riderId,
      riderNumber: rider.riderNumber,
      kitName: rider.kitName,
      riderName: displayName(rider),
      stationName: station.name,
      time: clockTime.format(at),
    };
    (finishers.has(riderId) ? finished : passed).set(riderId, data);
  }
  await notifyFollowers(tx, messenger, [...passed.keys()], 'follower_passage', passed);
  await notifyFollowers(tx, messenger, [...finished.keys()], 'follower_finish', finished);
}

/** The `scan` event of a stored scan: the rider, the station and the outcome, nothing private. */
function scanEvent(
  p: { item: ScanItem; station: StationRow; rider: Rider | null },
  outcome: { status: 'accepted' | 'flagged'; reason: ScanFlagReasonName | null },
): RallyEvent {
  return {
    type: 'scan',
    data: {
      scanId: p.item.id,
      status: outcome.status,
      reason: outcome.reason,
      riderId: p.rider?.id ?? null,
      riderNumber: p.rider?.riderNumber ?? p.item.riderNumber ?? null,
      kitName: p.rider?.kitName ?? null,
      stationId: p.station.id,
      stationName: p.station.name,
      stationKind: p.station.kind,
      day: p.station.day,
      scannedAt: new Date(p.item.scannedAt).toISOString(),
    },
  };
}

export function passageActivity(
  rider: Pick<Rider, 'id' | 'firstName' | 'lastName' | 'riderNumber'>,
  station: Pick<StationRow, 'id' | 'name' | 'kind'>,
  scan: { id: string; recordedBy?: string | null },
  recorders: Map<string, string>,
  submitted?: { id: string; name: string },
): ActivityInput {
  const name = displayName(rider);
  const by = scan.recordedBy ?? null;
  const otherSubmitter = submitted && submitted.id !== by ? submitted : null;
  return {
    type: 'checkpoint_scan',
    userId: rider.id,
    userName: name,
    actorId: by && recorders.has(by) ? by : null,
    actorName: by ? (recorders.get(by) ?? null) : null,
    description: `${name}${rider.riderNumber ? ` (#${rider.riderNumber})` : ''} passed ${station.name}`,
    details: otherSubmitter
      ? `${STATION_KIND_LABELS[station.kind]} · submitted by ${otherSubmitter.name}`
      : STATION_KIND_LABELS[station.kind],
    location: station.name,
    metadata: {
      scanId: scan.id,
      stationId: station.id,
      kind: station.kind,
      ...(submitted ? { submittedBy: submitted.id } : {}),
    },
  };
}
