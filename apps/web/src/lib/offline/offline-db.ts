// The device's own database (offline first): the scanner's roster, its queue of
// scans, a rider's SOS calls, the positions the rider pass records and a few settings live in IndexedDB so that a reload, a closed tab, a phone restart
// or an expired session while offline loses nothing. `idb` wraps IndexedDB's callbacks in
// promises; the schema is typed once here.
import type { IncidentStatus, SosKind } from '@rally/shared/catalog/event-day';
import type { Position } from '@rally/shared/contracts/incidents';
import type { RosterRider, ScanResult } from '@rally/shared/contracts/scans';
import type { EventSettings } from '@rally/shared/contracts/settings';
import type { Station } from '@rally/shared/contracts/stations';
import { type DBSchema, type IDBPDatabase, openDB } from 'idb';

export type LocalVerdictTone = 'accepted' | 'flagged' | 'unknown';

/** One scan as this device recorded it, and what the server later said about it. */
export interface QueuedScan {
  id: string;
  stationId: string;
  riderCode?: string;
  riderNumber?: number;
  scannedAt: string;
  deviceId: string;
  source: 'camera' | 'manual';
  recordedBy?: string;
  /** The roster rider the device matched, if any (for the list on screen). */
  riderId?: string;
  localTone: LocalVerdictTone;
  localReason?: string;
  /** `pending` until the server has answered for it; an index, so a string, not a boolean. */
  state: 'pending' | 'synced';
  result?: ScanResult;
  syncedAt?: string;
}

/** A rider's SOS as this phone recorded it, until the server has it (sos-queue.ts). */
export interface QueuedSos {
  id: string;
  userId: string;
  kind: SosKind;
  note?: string;
  position?: Position;
  createdAt: string;
  /** `pending` until the server answered; `refused` when it never will (a 4xx other than 401/403). */
  state: 'pending' | 'sent' | 'refused';
  /** `muted`: the account's calls are marked as abuse, so this one rang no alarm. */
  incident?: { id: string; status: IncidentStatus; muted?: true };
  sentAt?: string;
  error?: string;
}

/**
 * One position the rider pass recorded (position-queue.ts), kept until the server has it:
 * sent rows are deleted at once, so the store only ever holds what waits for a signal.
 */
export interface QueuedPosition {
  /** `<trackingId>|<at>`: the server keys a position by entry and time, so does the phone. */
  id: string;
  /** The entry's tracking id (the credential the position is sent with, not the session). */
  trackingId: string;
  /** When the phone took the fix (its own clock), ISO. */
  at: string;
  lat: number;
  lng: number;
  /** m/s as the Geolocation API gives it; converted to knots on the wire. */
  speed: number | null;
  bearing: number | null;
  altitude: number | null;
  accuracy: number | null;
  /** Battery percent 0–100 and charging, where the browser tells. */
  battery: number | null;
  charging: boolean | null;
}

interface MetaValues {
  deviceId: string;
  rosterCursor: string;
  rosterSyncedAt: string;
  stations: Station[];
  stationsSyncedAt: string;
  lastSyncAt: string;
  /** The event settings last read (the SOS fallback dials its hotline offline). */
  eventSettings: EventSettings;
}

interface OfflineSchema extends DBSchema {
  roster: {
    key: string;
    value: RosterRider;
    indexes: { byCode: string; byNumber: number };
  };
  photos: { key: string; value: { riderId: string; url: string; blob: Blob } };
  scans: {
    key: string;
    value: QueuedScan;
    indexes: { byState: string; byScannedAt: string };
  };
  meta: { key: keyof MetaValues; value: unknown };
  sos: { key: string; value: QueuedSos; indexes: { byState: string } };
  positions: { key: string; value: QueuedPosition; indexes: { byTrackingId: string } };
}

export type OfflineDb = IDBPDatabase<OfflineSchema>;

const DB_NAME = 'rally-offline';
let dbPromise: Promise<OfflineDb> | null = null;

export function offlineDb(): Promise<OfflineDb> {
  dbPromise ??= openDB<OfflineSchema>(DB_NAME, 3, {
    upgrade(db, oldVersion) {
      if (oldVersion < 1) createVersion1(db);
      // Version 2: a rider's SOS queue.
      if (oldVersion < 2) db.createObjectStore('sos', { keyPath: 'id' }).createIndex('byState', 'state');
      // Version 3: the rider pass's own positions, waiting for a signal. Earlier stores are kept as they are.
      if (oldVersion < 3)
        db.createObjectStore('positions', { keyPath: 'id' }).createIndex('byTrackingId', 'trackingId');
    },
    // Another tab holds an older version open: let it go rather than block this one.
    blocking() {
      void dbPromise?.then((db) => db.close());
      dbPromise = null;
    },
  });
  return dbPromise;
}

function createVersion1(db: IDBPDatabase<OfflineSchema>) {
  const roster = db.createObjectStore('roster', { keyPath: 'id' });
  // Riders without a code or number are simply absent from that index.
  roster.createIndex('byCode', 'riderCode');
  roster.createIndex('byNumber', 'riderNumber');
  db.createObjectStore('photos', { keyPath: 'riderId' });
  const scans = db.createObjectStore('scans', { keyPath: 'id' });
  scans.createIndex('byState', 'state');
  scans.createIndex('byScannedAt', 'scannedAt');
  db.createObjectStore('meta');
}

/**
 * On sign-out, what a shared phone must not keep for the next person: the roster (names,
 * rider codes, photos) and where its sync stood, scans already synced (their answers name
 * riders) and SOS calls already delivered or refused (notes and positions). Unsent scans and
 * calls stay: they are never lost, and go when their account signs in again.
 */
export async function forgetSignedOutData(): Promise<void> {
  const db = await offlineDb();
  const tx = db.transaction(['roster', 'photos', 'meta', 'scans', 'sos'], 'readwrite');
  await tx.objectStore('roster').clear();
  await tx.objectStore('photos').clear();
  for (const key of ['rosterCursor', 'rosterSyncedAt'] as const) await tx.objectStore('meta').delete(key);
  // What is still to be sent stays, whoever signs in next: it belongs to the event, not the phone's user.
  for (const store of ['scans', 'sos'] as const) {
    let row = await tx.objectStore(store).openCursor();
    while (row) {
      if (row.value.state !== 'pending') await row.delete();
      row = await row.continue();
    }
  }
  await tx.done;
}

export async function readMeta<K extends keyof MetaValues>(key: K): Promise<MetaValues[K] | undefined> {
  return (await (await offlineDb()).get('meta', key)) as MetaValues[K] | undefined;
}

export async function writeMeta<K extends keyof MetaValues>(key: K, value: MetaValues[K]): Promise<void> {
  await (await offlineDb()).put('meta', value, key);
}

/**
 * This device's id, made once and kept in IndexedDB (with a copy in localStorage, so that
 * clearing one of the two does not turn the phone into a new device).
 */
export async function deviceId(): Promise<string> {
  const stored = await readMeta('deviceId');
  if (stored) return stored;
  let id: string | null = null;
  try {
    id = localStorage.getItem('rally.deviceId');
  } catch {
    // Storage disabled: IndexedDB alone keeps it.
  }
  id ??= crypto.randomUUID();
  await writeMeta('deviceId', id);
  try {
    localStorage.setItem('rally.deviceId', id);
  } catch {
    // As above.
  }
  return id;
}
