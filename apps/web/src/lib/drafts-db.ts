// The small IndexedDB database that keeps unfinished forms on the phone (the registration's
// draft, features/registration/lib/registration-draft.ts, and a signed-in rider's /join
// entry). It lives in lib, not in the registration feature, because sign-out (lib/auth.tsx)
// must clear the account's drafts and lib never imports a feature. Loaded only when a form or
// a sign-out needs it: the landing page's script carries no IndexedDB code.
import { type DBSchema, type IDBPDatabase, openDB } from 'idb';

/** What a slot holds is the registration feature's business (its StoredDraft). */
interface DraftsSchema extends DBSchema {
  drafts: { key: string; value: unknown };
}

const DB_NAME = 'rally-registration';
/** The registration form's slot: a visitor's, before any account exists. */
export const REGISTRATION_DRAFT_SLOT = 'current';
const JOIN_PREFIX = 'join:';
/** A returning rider's "Join" form, per account: never restored into the registration or another rider's form. */
export const joinDraftSlot = (userId: string) => `${JOIN_PREFIX}${userId}`;

let dbPromise: Promise<IDBPDatabase<DraftsSchema>> | null = null;

export function draftsDb(): Promise<IDBPDatabase<DraftsSchema>> {
  dbPromise ??= openDB<DraftsSchema>(DB_NAME, 1, {
    upgrade(db) {
      db.createObjectStore('drafts');
    },
    blocking() {
      void dbPromise?.then((db) => db.close());
      dbPromise = null;
    },
  });
  // A browser without IndexedDB (or with it blocked) simply keeps no draft.
  dbPromise.catch(() => {
    dbPromise = null;
  });
  return dbPromise;
}

/**
 * On sign-out, every account's /join entry goes (its name, numbers, sizes, receipt): the next
 * person on a shared phone must not find it. A visitor's unfinished registration stays: it
 * belongs to no sign-in.
 */
export async function forgetAccountDrafts(): Promise<void> {
  // Every key that starts with the prefix: from it up to the prefix followed by the last code unit.
  await (await draftsDb()).delete('drafts', IDBKeyRange.bound(JOIN_PREFIX, `${JOIN_PREFIX}\uffff`));
}
