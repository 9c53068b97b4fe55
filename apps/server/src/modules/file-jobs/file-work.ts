// What the callers that store uploads call inside their transaction: queue the new file's
// processing (an image stored as sent) and, for a receipt, its reading.
import { and, eq, isNull, ne, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client';
import { files } from '../../db/schema/files';
import type { FileKind } from '../../lib/files';
import { queueReading } from '../receipts/receipt-reading.service';
import { enqueueFileJobs } from './file-jobs';

/**
 * A file row just written: an image 'processing' gets its 'process' job (which queues the
 * reading of a receipt once done); a receipt image processed in the request already gets
 * its 'read' job now; every receipt, PDFs too, its pending reading.
 */
export async function queueFileWork(
  tx: DbOrTx,
  file: { id: string; kind: FileKind; status: 'processing' | 'ready' | 'failed'; mimeType: string },
): Promise<void> {
  if (file.status === 'processing') await enqueueFileJobs(tx, [{ fileId: file.id, kind: 'process' }]);
  if (file.kind !== 'payment_receipt') return;
  await queueReading(tx, file.id);
  if (file.status === 'ready' && file.mimeType.startsWith('image/')) {
    await enqueueFileJobs(tx, [{ fileId: file.id, kind: 'read' }]);
  }
}

/**
 * The files of a new account, written by the bulk insert (lib/file-bytes.ts, which leaves
 * every row 'ready'): its images are originals as sent, so they are marked 'processing'
 * and queued; PDFs are kept as they are.
 */
export async function queueNewAccountFiles(tx: DbOrTx, userId: string): Promise<void> {
  const rows = await tx
    .update(files)
    .set({ status: sql`case when ${files.mimeType} = 'application/pdf' then 'ready' else 'processing' end` })
    .where(and(eq(files.userId, userId), isNull(files.supersededAt), ne(files.status, 'failed')))
    .returning({ id: files.id, kind: files.kind, status: files.status });
  await enqueueFileJobs(
    tx,
    rows.filter((r) => r.status === 'processing').map((r) => ({ fileId: r.id, kind: 'process' as const })),
  );
  for (const r of rows) if (r.kind === 'payment_receipt') await queueReading(tx, r.id);
}

/**
 * A file written by the bulk insert for an existing account (a returning rider's entry):
 * its current file of `kind` takes the status it was accepted with and is queued.
 */
export async function queueCurrentFile(
  tx: DbOrTx,
  userId: string,
  kind: FileKind,
  status: 'processing' | 'ready',
): Promise<void> {
  const [row] = await tx
    .update(files)
    .set({ status })
    .where(and(eq(files.userId, userId), eq(files.kind, kind), isNull(files.supersededAt)))
    .returning({ id: files.id, mimeType: files.mimeType });
  if (row) await queueFileWork(tx, { id: row.id, kind, status, mimeType: row.mimeType });
}
