// Stations: where marshals record riders. Every change is audited in the activity log;
// a station that has scans is closed, never deleted (its scans are the record).
import { type RallyRouteId, STATION_KIND_LABELS, type StationKindName } from '@rally/shared/catalog/event-day';
import { RALLY_ROUTES } from '@rally/shared/catalog/landing';
import { STATION_CODE_PREFIXES } from '@rally/shared/catalog/messages';
import type { CreateStationRequest, UpdateStationRequest } from '@rally/shared/contracts/stations';
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client';
import { scans, stations } from '../../db/schema/event-day';
import type { Actor } from '../../lib/actor';
import { type EditionRead, inEdition } from '../../lib/edition-of';
import { BadRequestError, ConflictError, isUniqueViolation, NotFoundError } from '../../lib/errors';
import { recordActivity } from '../activities/activities.service';
import { recomputeCheckpoints } from '../course/passages';

const stationColumns = {
  id: stations.id,
  name: stations.name,
  code: stations.code,
  kind: stations.kind,
  day: stations.day,
  routes: stations.routes,
  order: stations.order,
  lat: stations.lat,
  lng: stations.lng,
  opensAt: stations.opensAt,
  closesAt: stations.closesAt,
  required: stations.required,
  closed: stations.closed,
  // Spelled out: in a one-table select Drizzle leaves columns unqualified, which inside the
  // subquery would bind to scans' own id. A station's id repeats in every edition: the pair.
  scanCount: sql<number>`(select count(*)::int from scans where scans.edition_id = stations.edition_id and scans.station_id = stations.id)`,
};
export type StationListRow = Awaited<ReturnType<typeof listStations>>[number];

const stationNotFound = () => new NotFoundError('Station not found', 'STATION_NOT_FOUND');

const codeTaken = (code: string, holder?: string) =>
  new ConflictError(
    `The code ${code} is already used${holder ? ` by the station ${holder}` : ''}; choose another`,
    'STATION_CODE_TAKEN',
  );

/** The current edition's station `id` (a station keeps its id from one edition to the next). */
const stationIs = (id: string) => and(inEdition(stations.editionId), eq(stations.id, id));

/** A code another station holds: refused with its name (the unique index still decides a race). */
async function checkCodeFree(tx: DbOrTx, code: string, exceptId?: string) {
  const [holder] = await tx
    .select({ id: stations.id, name: stations.name })
    .from(stations)
    .where(and(inEdition(stations.editionId), eq(stations.code, code)))
    .limit(1);
  if (holder && holder.id !== exceptId) throw codeTaken(code, holder.name);
}

/** Two writers claiming one code at once: the loser's unique violation becomes the same 409. */
async function claimingCode<T>(code: string | undefined, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (err) {
    if (code && isUniqueViolation(err, 'stations_code_idx')) throw codeTaken(code);
    throw err;
  }
}

/** Sorted by day, then order, as the console and scanners list them; `edition`'s (default: the current one). */
export function listStations(db: DbOrTx, edition?: EditionRead) {
  return db
    .select(stationColumns)
    .from(stations)
    .where(inEdition(stations.editionId, edition))
    .orderBy(asc(stations.day), asc(stations.order), asc(stations.name));
}

export async function getStation(db: DbOrTx, id: string) {
  const [row] = await db.select(stationColumns).from(stations).where(stationIs(id)).limit(1);
  if (!row) throw stationNotFound();
  return row;
}

function checkWindow(opensAt: Date | null, closesAt: Date | null) {
  if (opensAt && closesAt && closesAt <= opensAt) {
    throw new BadRequestError('closesAt must be after opensAt', 'STATION_WINDOW');
  }
}

const toDate = (v: string | null | undefined) => (v === undefined ? undefined : v === null ? null : new Date(v));
const uniqueRoutes = (routes: readonly string[]) => [...new Set(routes)];

function audit(tx: DbOrTx, actor: Actor, description: string, station: { id: string; name: string }, details?: string) {
  return recordActivity(tx, {
    type: 'station_updated',
    actorId: actor.id,
    actorName: actor.name,
    description,
    details: details ?? null,
    location: station.name,
    metadata: { stationId: station.id },
  });
}

/**
 * Codes for new stations of these kinds: the kind's prefix and the next number not yet
 * used (CP4 after CP1-CP3). Called inside the writing transaction, under a lock on the
 * table, so two creations never draw the same code.
 */
export async function nextStationCodes(tx: DbOrTx, kinds: readonly StationKindName[]): Promise<string[]> {
  await tx.execute(sql`lock table ${stations} in share row exclusive mode`);
  // Codes are unique per edition: last year's CP4 does not hold this year's.
  const taken = new Set(
    (await tx.select({ code: stations.code }).from(stations).where(inEdition(stations.editionId))).map((r) => r.code),
  );
  return kinds.map((kind) => {
    const prefix = STATION_CODE_PREFIXES[kind];
    let n = 1;
    while (taken.has(`${prefix}${n}`)) n++;
    taken.add(`${prefix}${n}`);
    return `${prefix}${n}`;
  });
}

export async function createStation(db: Db, body: CreateStationRequest, actor: Actor) {
  const day = body.day ?? 1;
  const opensAt = toDate(body.opensAt) ?? null;
  const closesAt = toDate(body.closesAt) ?? null;
  checkWindow(opensAt, closesAt);
  const id = await claimingCode(body.code, () =>
    db.transaction(async (tx) => {
      // "After the last" of its day when no order is given.
      const [last] = await tx
        .select({ next: sql<number>`coalesce(max(${stations.order}), -1)::int + 1` })
        .from(stations)
        .where(and(inEdition(stations.editionId), eq(stations.day, day)));
      const order = body.order ?? last?.next ?? 0;
      if (body.code) await checkCodeFree(tx, body.code);
      const [code] = body.code ? [body.code] : await nextStationCodes(tx, [body.kind]);
      const [row] = await tx
        .insert(stations)
        .values({
          name: body.name,
          code: code as string,
          kind: body.kind,
          day,
          routes: uniqueRoutes(body.routes ?? []),
          order,
          lat: body.lat ?? null,
          lng: body.lng ?? null,
          opensAt,
          closesAt,
          required: body.required ?? false,
        })
        .returning({ id: stations.id, name: stations.name });
      if (!row) throw new Error('insert returned nothing');
      await audit(
        tx,
        actor,
        `${actor.name} created the station ${row.name}`,
        row,
        `${STATION_KIND_LABELS[body.kind]}, day ${day}, code ${code}`,
      );
      return row.id;
    }),
  );
  return getStation(db, id);
}

export async function updateStation(db: Db, id: string, body: UpdateStationRequest, actor: Actor) {
  await claimingCode(body.code, () =>
    db.transaction(async (tx) => {
      const [current] = await tx.select().from(stations).where(stationIs(id)).for('update');
      if (!current) throw stationNotFound();
      const patch: Partial<typeof stations.$inferInsert> = {};
      const changed: string[] = [];
      const set = <K extends keyof typeof stations.$inferInsert>(key: K, value: (typeof stations.$inferInsert)[K]) => {
        const before = current[key as keyof typeof current];
        const same =
          before instanceof Date && value instanceof Date
            ? before.getTime() === value.getTime()
            : JSON.stringify(before) === JSON.stringify(value);
        if (same) return;
        patch[key] = value;
        changed.push(String(key));
      };
      if (body.name !== undefined) set('name', body.name);
      if (body.code !== undefined && body.code !== current.code) {
        await checkCodeFree(tx, body.code, id);
        set('code', body.code);
      }
      if (body.kind !== undefined) set('kind', body.kind);
      if (body.day !== undefined) set('day', body.day);
      if (body.routes !== undefined) set('routes', uniqueRoutes(body.routes));
      if (body.order !== undefined) set('order', body.order);
      if (body.lat !== undefined) set('lat', body.lat);
      if (body.lng !== undefined) set('lng', body.lng);
      if (body.opensAt !== undefined) set('opensAt', toDate(body.opensAt) ?? null);
      if (body.closesAt !== undefined) set('closesAt', toDate(body.closesAt) ?? null);
      if (body.required !== undefined) set('required', body.required);
      if (body.closed !== undefined) set('closed', body.closed);
      checkWindow(
        patch.opensAt !== undefined ? (patch.opensAt ?? null) : current.opensAt,
        patch.closesAt !== undefined ? (patch.closesAt ?? null) : current.closesAt,
      );
      if (changed.length === 0) return;
      await tx
        .update(stations)
        .set({ ...patch, updatedAt: new Date() })
        .where(stationIs(id));
      if (patch.kind !== undefined) {
        // The checkpoint count is derived from checkpoint stations: a kind change moves it.
        const riders = await tx
          .selectDistinct({ id: scans.riderId })
          .from(scans)
          .where(and(inEdition(scans.editionId), eq(scans.stationId, id)));
        await recomputeCheckpoints(
          tx,
          riders.flatMap((r) => (r.id ? [r.id] : [])),
        );
      }
      const name = patch.name ?? current.name;
      const verb = patch.closed === true ? 'closed' : patch.closed === false ? 'reopened' : 'updated';
      await audit(tx, actor, `${actor.name} ${verb} the station ${name}`, { id, name }, changed.join(', '));
    }),
  );
  return getStation(db, id);
}

export async function deleteStation(db: Db, id: string, actor: Actor) {
  await db.transaction(async (tx) => {
    const [current] = await tx.select().from(stations).where(stationIs(id)).for('update');
    if (!current) throw stationNotFound();
    const [used] = await tx
      .select({ id: scans.id })
      .from(scans)
      .where(and(inEdition(scans.editionId), eq(scans.stationId, id)))
      .limit(1);
    if (used) {
      throw new ConflictError(
        `${current.name} has scans and cannot be deleted; close it instead (its scans stay on record)`,
        'STATION_HAS_SCANS',
      );
    }
    await tx.delete(stations).where(stationIs(id));
    await audit(tx, actor, `${actor.name} deleted the station ${current.name}`, current);
  });
}

/** Gives one day's stations the order of `ids` (0, 1, 2, …); every id must be a station of that day. */
export async function reorderStations(db: Db, day: number, ids: string[], actor: Actor) {
  if (new Set(ids).size !== ids.length) throw new BadRequestError('ids must not repeat a station', 'REORDER_REPEAT');
  await db.transaction(async (tx) => {
    const rows = await tx
      .select({ id: stations.id, day: stations.day, order: stations.order })
      .from(stations)
      .where(and(inEdition(stations.editionId), eq(stations.day, day)))
      .orderBy(asc(stations.id))
      .for('update');
    const ofDay = new Set(rows.map((r) => r.id));
    const stray = ids.find((id) => !ofDay.has(id));
    if (stray) throw new BadRequestError(`Station ${stray} is not a station of day ${day}`, 'REORDER_UNKNOWN');
    if (ids.length !== rows.length) {
      throw new BadRequestError(`ids must list all ${rows.length} stations of day ${day}`, 'REORDER_INCOMPLETE');
    }
    const current = new Map(rows.map((r) => [r.id, r.order]));
    let moved = 0;
    for (const [order, id] of ids.entries()) {
      if (current.get(id) === order) continue;
      await tx.update(stations).set({ order, updatedAt: new Date() }).where(stationIs(id));
      moved++;
    }
    if (moved > 0) {
      await recordActivity(tx, {
        type: 'station_updated',
        actorId: actor.id,
        actorName: actor.name,
        description: `${actor.name} reordered the stations of day ${day}`,
        metadata: { day, ids },
      });
    }
  });
  const all = await listStations(db);
  return all.filter((s) => s.day === day);
}

export interface DefaultStation {
  name: string;
  kind: 'start' | 'checkpoint' | 'finish';
  routes: RallyRouteId[];
  lat: number;
  lng: number;
  required: boolean;
}

/**
 * The default set from the route catalog: the shared start (flag-off), each checkpoint
 * waypoint once with every route that passes a place of that name, and the finish back
 * at the start (every loop ends there). Start and finish are required for a finish.
 */
export function defaultStations(): DefaultStation[] {
  const routes = Object.values(RALLY_ROUTES);
  const start = routes[0]?.waypoints.find((w) => w.type === 'start');
  if (!start) throw new Error('the route catalog has no start');
  const checkpoints = new Map<string, DefaultStation>();
  for (const route of routes) {
    for (const w of route.waypoints) {
      if (w.type !== 'checkpoint' || checkpoints.has(w.name)) continue;
      const passing = routes.filter((r) => r.waypoints.some((x) => x.name === w.name)).map((r) => r.id as RallyRouteId);
      checkpoints.set(w.name, {
        name: w.name,
        kind: 'checkpoint',
        routes: passing.length === routes.length ? [] : passing,
        lat: w.position[0],
        lng: w.position[1],
        required: false,
      });
    }
  }
  const [lat, lng] = start.position;
  return [
    { name: `${start.name} (flag-off)`, kind: 'start', routes: [], lat, lng, required: true },
    ...checkpoints.values(),
    { name: `${start.name} (finish)`, kind: 'finish', routes: [], lat, lng, required: true },
  ];
}

/** Creates the default set on an empty station list; refuses (409) once any station exists. */
export async function seedDefaultStations(db: Db, actor: Actor | null) {
  await db.transaction(async (tx) => {
    // Two organisers pressing the button at once: one seeds, the other gets the 409.
    await tx.execute(sql`lock table ${stations} in share row exclusive mode`);
    const [existing] = await tx
      .select({ id: stations.id })
      .from(stations)
      .where(inEdition(stations.editionId))
      .limit(1);
    if (existing) {
      throw new ConflictError('Stations already exist; the default set only seeds an empty list', 'STATIONS_EXIST');
    }
    const defaults = defaultStations();
    const codes = await nextStationCodes(
      tx,
      defaults.map((d) => d.kind),
    );
    await tx
      .insert(stations)
      .values(defaults.map((d, order) => ({ ...d, code: codes[order] as string, day: 1, order })));
    await recordActivity(tx, {
      type: 'station_updated',
      actorId: actor?.id ?? null,
      actorName: actor?.name ?? 'System',
      description: `${actor?.name ?? 'The system'} created the default stations (${defaults.length})`,
      details: defaults.map((d) => d.name).join(', '),
    });
  });
  return listStations(db);
}

export async function stationsByIds(db: DbOrTx, ids: string[]) {
  if (ids.length === 0) return [];
  return db
    .select()
    .from(stations)
    .where(and(inEdition(stations.editionId), inArray(stations.id, ids)));
}
