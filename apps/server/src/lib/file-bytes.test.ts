import { createHash } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { files } from '../db/schema/files';
import { users } from '../db/schema/users';
import { DB_KINDS, openTestDatabase } from '../test/build-app';
import { firstRow, present } from '../test/present';
import { bytesColumn, bytesFrom, insertFiles, type NewFileRow } from './file-bytes';
import type { ProcessedFile } from './files';

type Opened = Awaited<ReturnType<typeof openTestDatabase>>;

/** A new row keeping its bytes in itself (the database store). */
const inRow = (userId: string, f: ProcessedFile): NewFileRow => ({
  userId,
  file: f,
  placement: { data: f.data, storageKey: null },
});

describe.each(DB_KINDS)('insertFiles on %s', (kind) => {
  let t: Opened;
  let seq = 0;
  beforeAll(async () => {
    t = await openTestDatabase(kind);
  });
  afterAll(() => t.drop());

  const newUser = async () => {
    const u = firstRow(
      await t.database.db
        .insert(users)
        .values({
          email: `file-bytes-${seq++}@example.com`,
          passwordHash: 'x',
          firstName: 'File',
          lastName: 'Bytes',
          phoneNumber: '09171234567',
        })
        .returning({ id: users.id }),
    );
    return u.id;
  };

  const file = (over: Partial<ProcessedFile>): ProcessedFile => {
    const data = over.data ?? Buffer.from('x');
    return {
      kind: 'profile_image',
      mimeType: 'image/jpeg',
      data,
      sizeBytes: data.length,
      width: 10,
      height: 20,
      sha256: createHash('sha256').update(data).digest('hex'),
      originalName: 'a.jpg',
      ...over,
    };
  };

  const stored = (userId: string) =>
    t.database.db
      .select({
        kind: files.kind,
        mimeType: files.mimeType,
        sizeBytes: files.sizeBytes,
        width: files.width,
        height: files.height,
        sha256: files.sha256,
        originalName: files.originalName,
        data: bytesColumn(files.data),
      })
      .from(files)
      .where(eq(files.userId, userId))
      .orderBy(files.kind);

  it('stores every byte and every field of each row, nulls and non-ASCII names included', async () => {
    if (kind === 'pglite') {
      // The fast path (COPY from PGlite's in-memory file system) is the one under test here.
      const client = (t.database.db as unknown as { $client?: { Module?: { FS?: { writeFile?: unknown } } } }).$client;
      expect(typeof client?.Module?.FS?.writeFile).toBe('function');
    }
    const userId = await newUser();
    // Every byte value, and more than one TOAST chunk and one 8 KB page.
    const big = Buffer.alloc(700_000);
    for (let i = 0; i < big.length; i++) big[i] = (i * 31 + (i >> 8)) & 0xff;
    const photo = file({ data: big, originalName: 'Mañana “photo” 日本.jpg' });
    const receipt = file({
      kind: 'payment_receipt',
      mimeType: 'application/pdf',
      data: Buffer.from('%PDF-1.4\n\0\xff binary'),
      width: null,
      height: null,
      originalName: null,
    });
    await t.database.db.transaction((tx) =>
      insertFiles(t.database.db, tx, [inRow(userId, photo), inRow(userId, receipt)]),
    );
    const rows = await stored(userId);
    expect(rows).toHaveLength(2);
    for (const [row, want] of [
      [present(rows[0]), photo],
      [present(rows[1]), receipt],
    ] as const) {
      const { data, ...meta } = row;
      expect(meta).toEqual({
        kind: want.kind,
        mimeType: want.mimeType,
        sizeBytes: want.sizeBytes,
        width: want.width,
        height: want.height,
        sha256: want.sha256,
        originalName: want.originalName,
      });
      expect(bytesFrom(data).equals(want.data)).toBe(true);
    }
    const { digest } = firstRow(
      (await t.database.db
        .select({ digest: sql<string>`encode(sha256(${files.data}), 'hex')` })
        .from(files)
        .where(eq(files.userId, userId))
        .orderBy(files.kind)) as Array<{ digest: string }>,
    );
    expect(digest).toBe(photo.sha256);
  });

  it('writes a row whose bytes are in an object store: its key, no data', async () => {
    const userId = await newUser();
    const photo = file({});
    await t.database.db.transaction((tx) =>
      insertFiles(t.database.db, tx, [{ userId, file: photo, placement: { data: null, storageKey: 'files/k1' } }]),
    );
    const [row] = await t.database.db
      .select({ storageKey: files.storageKey, empty: sql<boolean>`${files.data} is null`, sha256: files.sha256 })
      .from(files)
      .where(eq(files.userId, userId));
    expect(row).toEqual({ storageKey: 'files/k1', empty: true, sha256: photo.sha256 });
  });

  it('rolls back with the transaction that carried it', async () => {
    const userId = await newUser();
    await expect(
      t.database.db.transaction(async (tx) => {
        await insertFiles(t.database.db, tx, [inRow(userId, file({ data: Buffer.alloc(50_000, 7) }))]);
        expect(await tx.select({ id: files.id }).from(files).where(eq(files.userId, userId))).toHaveLength(1);
        throw new Error('later step failed');
      }),
    ).rejects.toThrow('later step failed');
    expect(await stored(userId)).toEqual([]);
  });

  it('fails the transaction on a bad row (no such user) and leaves nothing', async () => {
    const userId = await newUser();
    const missing = '00000000-0000-4000-8000-000000000000';
    await expect(
      t.database.db.transaction((tx) =>
        insertFiles(t.database.db, tx, [inRow(userId, file({})), inRow(missing, file({ kind: 'payment_receipt' }))]),
      ),
    ).rejects.toThrow();
    expect(await stored(userId)).toEqual([]);
    // And the database is usable afterwards.
    await t.database.db.transaction((tx) => insertFiles(t.database.db, tx, [inRow(userId, file({}))]));
    expect(await stored(userId)).toHaveLength(1);
  });
});
