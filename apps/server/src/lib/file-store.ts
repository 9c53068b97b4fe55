// Where the bytes of uploaded files live. One interface, two stores:
// - database (the default): the bytes go into the file's own row, in the same transaction
//   as the registration or upload, so they commit or roll back together and every server
//   instance on the database reads them;
// - s3: any S3-compatible object store (AWS S3, MinIO, Cloudflare R2), set by S3_BUCKET and
//   its companions (config.ts). The bytes are put under a fresh key before the row that
//   names the key commits; when the row does not commit (or is later deleted) the object
//   is removed. Every instance given the same bucket reads every file.
// A row records which: `data` or `storage_key` (schema/files.ts). Rows written before the
// store was switched keep their place and stay readable, whichever store is configured.
//
// Originals waiting for the file queue (DESIGN.md §13) may instead go to a spool directory
// on this machine's disk (`spooledFileStore`, UPLOAD_SPOOL_DIR): a registration then writes
// ~3 MB to a file rather than through the embedded database's WebAssembly memory and its
// WAL, which cost the rush more event-loop time than everything else in the request.
import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir, open, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { S3Client } from '@aws-sdk/client-s3';
import type { FileStoreConfig } from '../config';

/** What a new row records: the bytes themselves, or the key of the object holding them. */
export type FilePlacement = { data: Buffer; storageKey: null } | { data: null; storageKey: string };

/**
 * What a file is for: `kept` is served once ready; an `original` is an image as sent,
 * read only by the file queue and replaced by its processed copy.
 */
export type FileUse = 'kept' | 'original';

export interface FileStore {
  readonly kind: FileStoreConfig['kind'];
  /** Puts a new file where this store keeps files of that use; call before the row commits. */
  place(data: Buffer, mimeType: string, use?: FileUse): Promise<FilePlacement>;
  /** The bytes of an object, as a stream (downloads are sent as they arrive). */
  open(storageKey: string): Promise<{ stream: Readable; length: number | undefined }>;
  /**
   * Removes objects whose rows did not commit or were deleted. Never throws: a file that
   * could not be removed is an orphan in the bucket (logged), not a failed request.
   */
  remove(storageKeys: readonly string[]): Promise<void>;
}

export class FileStoreError extends Error {}

/** The default: bytes in the row, nothing elsewhere. */
export const databaseFileStore: FileStore = {
  kind: 'database',
  place: async (data) => ({ data, storageKey: null }),
  open: async (storageKey) => {
    throw new FileStoreError(
      `File ${storageKey} is in an object store, but none is configured: set S3_BUCKET (and its S3_ variables) as when it was uploaded`,
    );
  },
  remove: async () => {},
};

type Warn = (message: string, err: unknown) => void;

/**
 * An S3-compatible store. The AWS SDK (~10 MB of modules) loads with the first call, not
 * at start: the server has a memory budget and most installations keep files in the
 * database.
 */
export function s3FileStore(config: Extract<FileStoreConfig, { kind: 's3' }>, warn: Warn): FileStore {
  let sdk: Promise<{ client: S3Client; module: typeof import('@aws-sdk/client-s3') }> | undefined;
  const load = () => {
    sdk ??= import('@aws-sdk/client-s3').then((module) => ({
      module,
      client: new module.S3Client({
        region: config.region,
        endpoint: config.endpoint,
        forcePathStyle: config.forcePathStyle,
        credentials: config.credentials,
        // Checksums only where the S3 API requires them: the SDK's default (CRC32 on every
        // put and get, since 2025) is refused or mangled by several S3-compatible stores,
        // and every file's SHA-256 is already kept in its row.
        requestChecksumCalculation: 'WHEN_REQUIRED',
        responseChecksumValidation: 'WHEN_REQUIRED',
      }),
    }));
    return sdk;
  };
  const key = (storageKey: string) => `${config.prefix}${storageKey}`;

  return {
    kind: 's3',
    async place(data, mimeType) {
      const { client, module } = await load();
      const storageKey = `files/${randomUUID()}`;
      await client.send(
        new module.PutObjectCommand({
          Bucket: config.bucket,
          Key: key(storageKey),
          Body: data,
          ContentType: mimeType,
          ContentLength: data.length,
        }),
      );
      return { data: null, storageKey };
    },
    async open(storageKey) {
      const { client, module } = await load();
      const answer = await client.send(new module.GetObjectCommand({ Bucket: config.bucket, Key: key(storageKey) }));
      const body = answer.Body;
      if (!(body instanceof Readable)) throw new FileStoreError(`The object store sent no body for ${storageKey}`);
      return { stream: body, length: answer.ContentLength };
    },
    async remove(storageKeys) {
      if (storageKeys.length === 0) return;
      try {
        const { client, module } = await load();
        // One DeleteObject per key rather than DeleteObjects: the batch call needs a
        // Content-MD5 some stores insist on, and a rider has at most two files.
        await Promise.all(
          storageKeys.map((k) => client.send(new module.DeleteObjectCommand({ Bucket: config.bucket, Key: key(k) }))),
        );
      } catch (err) {
        warn(`could not remove ${storageKeys.join(', ')} from the object store; left as orphans`, err);
      }
    },
  };
}

/** Places an upload as accepted: an image waiting for the queue is an original. */
export function placeUpload(
  store: FileStore,
  file: { data: Buffer; mimeType: string; status?: 'processing' | 'ready' },
): Promise<FilePlacement> {
  return store.place(file.data, file.mimeType, file.status === 'processing' ? 'original' : 'kept');
}

const SPOOL_PREFIX = 'spool/';

/** Whether a storage key names an original in the spool rather than an object in `inner`. */
export const isSpoolKey = (storageKey: string) => storageKey.startsWith(SPOOL_PREFIX);

/**
 * `inner` for every kept file, and a directory on this machine for originals. An original
 * is written and fsync'd before its row commits (the row names it, so the queue finds it
 * after a crash); the queue's processed copy goes to `inner` and the original is removed
 * once the row names the copy. Only an instance that sees the directory can process its
 * originals: one server, or a directory every instance shares.
 */
export function spooledFileStore(inner: FileStore, dir: string, warn: Warn): FileStore {
  let made: Promise<unknown> | undefined;
  const file = (storageKey: string) => path.join(dir, path.basename(storageKey.slice(SPOOL_PREFIX.length)));
  return {
    kind: inner.kind,
    async place(data, mimeType, use = 'kept') {
      if (use !== 'original') return inner.place(data, mimeType, use);
      made ??= mkdir(dir, { recursive: true, mode: 0o700 });
      await made;
      const storageKey = `${SPOOL_PREFIX}${randomUUID()}`;
      const handle = await open(file(storageKey), 'wx', 0o600);
      try {
        await handle.writeFile(data);
        await handle.sync();
      } finally {
        await handle.close();
      }
      return { data: null, storageKey };
    },
    async open(storageKey) {
      if (!isSpoolKey(storageKey)) return inner.open(storageKey);
      const { size } = await stat(file(storageKey));
      return { stream: createReadStream(file(storageKey)), length: size };
    },
    async remove(storageKeys) {
      const spooled = storageKeys.filter(isSpoolKey);
      await inner.remove(storageKeys.filter((k) => !isSpoolKey(k)));
      await Promise.all(
        spooled.map((k) =>
          rm(file(k), { force: true }).catch((err: unknown) => warn(`could not remove ${k}; left as an orphan`, err)),
        ),
      );
    },
  };
}

/**
 * The spool's files no row names, older than `minAgeMs`: written by a request that died
 * before its row committed. Younger ones may belong to a registration still committing.
 */
export async function spoolOrphans(
  dir: string,
  isNamed: (storageKeys: string[]) => Promise<Set<string>>,
  minAgeMs: number,
  now = Date.now(),
): Promise<string[]> {
  const names = await readdir(dir).catch(() => [] as string[]);
  const old: string[] = [];
  for (const name of names) {
    const info = await stat(path.join(dir, name)).catch(() => null);
    if (info?.isFile() && now - info.mtimeMs >= minAgeMs) old.push(`${SPOOL_PREFIX}${name}`);
  }
  if (old.length === 0) return [];
  const named = await isNamed(old);
  return old.filter((k) => !named.has(k));
}

export function openFileStore(config: FileStoreConfig, warn: Warn, spoolDir: string | null = null): FileStore {
  const store = config.kind === 's3' ? s3FileStore(config, warn) : databaseFileStore;
  return spoolDir ? spooledFileStore(store, spoolDir, warn) : store;
}

/** Reads a whole stream (a thumbnail needs the image in memory anyway). */
export async function streamBytes(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}
