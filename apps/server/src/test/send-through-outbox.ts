// Writes outbox rows as a service would, lets the test app's own worker send everything due,
// and answers the rows as the worker left them: what the channel tests read.
import { eq } from 'drizzle-orm';
import { type OutboxRow, outboxMessages } from '../db/schema/messages';
import { enqueueMessages, type NewMessage } from '../modules/messages/outbox';
import type { TestApp } from './build-app';

export async function sendThroughOutbox(t: TestApp, messages: NewMessage[]): Promise<OutboxRow[]> {
  const rows = await t.database.db.transaction((tx) => enqueueMessages(tx, messages));
  const worker = t.app.messenger.worker;
  if (!worker) throw new Error('the test app runs no worker');
  worker.wake();
  await worker.idle();
  return Promise.all(
    rows.map(
      async (row) =>
        (await t.database.db.select().from(outboxMessages).where(eq(outboxMessages.id, row.id)))[0] as OutboxRow,
    ),
  );
}
