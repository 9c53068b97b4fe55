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
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import type { S3Client } from '@aws-sdk/client-s3';
import type { FileStoreConfig } from '../config';

/** What a new row records: the bytes themselves, or the key of the object holding them. */
export type FilePlacement = { data: Buffer; storageKey: null } | { data: null; storageKey: string };

export interface FileStore {
  readonly kind: FileStoreConfig['kind'];
  /** Puts a new file where this store keeps files; call before the row commits. */
  place(data: Buffer, mimeType: string): Promise<FilePlacement>;
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

export function openFileStore(config: FileStoreConfig, warn: Warn): FileStore {
  return config.kind === 's3' ? s3FileStore(config, warn) : databaseFileStore;
}

/** Reads a whole stream (a thumbnail needs the image in memory anyway). */
export async function streamBytes(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}
