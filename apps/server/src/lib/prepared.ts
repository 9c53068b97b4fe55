// Hot read queries built once per database handle and prepared by name: Drizzle then skips
// rebuilding the SQL for every request, and PostgreSQL keeps the plan per connection
// instead of parsing and planning the same text again (0.97 → 0.21 ms for a profile read).
import type { Db } from '../db/client';

/** `build(db)` runs once per handle (tests open many databases in one process). */
export function preparedPerDb<T>(build: (db: Db) => T): (db: Db) => T {
  const byDb = new WeakMap<Db, T>();
  return (db) => {
    let prepared = byDb.get(db);
    if (prepared === undefined) {
      prepared = build(db);
      byDb.set(db, prepared);
    }
    return prepared;
  };
}
