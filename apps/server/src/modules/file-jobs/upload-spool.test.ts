// The spool where originals wait for the file queue (lib/file-store.ts): an original is a
// file of its own on disk, readable by the queue and removed with its row's next key; what
// a request left behind without a committed row is swept once old enough.
import { mkdtempSync, readdirSync, readFileSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { files } from '../../db/schema/files';
import { users } from '../../db/schema/users';
import { databaseFileStore, spooledFileStore, streamBytes } from '../../lib/file-store';
import { DB_KINDS, openTestDatabase } from '../../test/build-app';
import { firstRow } from '../../test/present';
import { sweepSpool } from './file-jobs.plugin';

const warnings: string[] = [];
const newSpool = () => {
  const dir = path.join(mkdtempSync(path.join(os.tmpdir(), 'rally-spool-')), 'spool');
  return { dir, store: spooledFileStore(databaseFileStore, dir, (m) => warnings.push(m)) };
};
const keyFile = (dir: string, key: string) => path.join(dir, key.slice('spool/'.length));

describe('the upload spool', () => {
  it('keeps an original on disk, owner-only, and a kept file where the store keeps files', async () => {
    const { dir, store } = newSpool();
    const bytes = Buffer.from('original bytes as sent');
    const original = await store.place(bytes, 'image/jpeg', 'original');
    expect(original.data).toBeNull();
    expect(original.storageKey).toMatch(/^spool\/[0-9a-f-]{36}$/);
    const file = keyFile(dir, original.storageKey as string);
    expect(readFileSync(file).equals(bytes)).toBe(true);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const opened = await store.open(original.storageKey as string);
    expect(opened.length).toBe(bytes.length);
    expect((await streamBytes(opened.stream)).equals(bytes)).toBe(true);

    const kept = await store.place(Buffer.from('processed'), 'image/jpeg');
    expect(kept).toEqual({ data: Buffer.from('processed'), storageKey: null });

    await store.remove([original.storageKey as string]);
    expect(readdirSync(dir)).toEqual([]);
    // Removing what is already gone is no fault: a retried job removes again.
    await store.remove([original.storageKey as string]);
    expect(warnings).toEqual([]);
  });

  it('refuses a key that would leave the spool', async () => {
    const { dir, store } = newSpool();
    await store.place(Buffer.from('x'), 'image/png', 'original');
    const outside = path.join(path.dirname(dir), 'secret');
    writeFileSync(outside, 'not yours');
    await expect(store.open('spool/../secret')).rejects.toThrow(/ENOENT/);
  });
});

describe.each(DB_KINDS)('sweeping the spool on %s', (kind) => {
  let t: Awaited<ReturnType<typeof openTestDatabase>>;
  beforeAll(async () => {
    t = await openTestDatabase(kind);
  });
  afterAll(() => t.drop());

  it('removes old originals no row names, and keeps named and young ones', async () => {
    const { dir, store } = newSpool();
    const user = firstRow(
      await t.database.db
        .insert(users)
        .values({
          email: `spool-${kind}@example.com`,
          passwordHash: 'x',
          firstName: 'Spool',
          lastName: 'Sweep',
          phoneNumber: '09171234567',
        })
        .returning({ id: users.id }),
    );
    const place = async () =>
      (await store.place(Buffer.from(`b${Math.random()}`), 'image/jpeg', 'original')).storageKey as string;
    const named = await place();
    const orphan = await place();
    const young = await place();
    await t.database.db.insert(files).values({
      userId: user.id,
      kind: 'profile_image',
      mimeType: 'image/jpeg',
      sizeBytes: 1,
      width: 1,
      height: 1,
      sha256: 'a'.repeat(64),
      status: 'processing',
      storageKey: named,
    });
    const now = Date.now();
    const old = new Date(now - 11 * 60_000);
    for (const key of [named, orphan]) utimesSync(keyFile(dir, key), old, old);

    expect(await sweepSpool(t.database.db, store, dir, now)).toBe(1);
    expect(readdirSync(dir).sort()).toEqual([named, young].map((k) => k.slice('spool/'.length)).sort());
    // A second sweep finds nothing more; a missing spool directory is no fault.
    expect(await sweepSpool(t.database.db, store, dir, now)).toBe(0);
    expect(await sweepSpool(t.database.db, store, path.join(dir, 'none'), now)).toBe(0);
  });
});
