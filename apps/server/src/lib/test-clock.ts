// A test hook on the operator's control socket: `npm run cli -- test-clock --advance-minutes N`
// moves the running server's clock (app.clock) forward, so an end-to-end test sees a rider
// turn overdue without sleeping. It answers only when the server was started with
// RALLY_TEST_CLOCK=1 (the e2e config does); a production server refuses it. The jump is
// announced on the event stream like any course change, so open boards refetch.
import type { FastifyInstance } from 'fastify';
import type { DbOrTx } from '../db/client';
import type { ControlResult } from './control-channel';
import { publishEvent } from './event-bus';

export const TEST_CLOCK_COMMAND = 'test-clock';

export function testClockEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  return env.RALLY_TEST_CLOCK === '1';
}

export async function runTestClockCommand(
  app: FastifyInstance,
  db: DbOrTx,
  args: Record<string, string>,
  enabled = testClockEnabled(),
): Promise<ControlResult> {
  if (!enabled) {
    return { exitCode: 1, output: 'test-clock is off: it answers only on a server started with RALLY_TEST_CLOCK=1' };
  }
  const minutes = Number(args['advance-minutes']);
  if (!Number.isFinite(minutes) || minutes < 0 || minutes > 7 * 24 * 60) {
    return { exitCode: 1, output: 'Usage: npm run cli -- test-clock --advance-minutes N (0 to 10080)' };
  }
  const before = app.clock.now().getTime();
  const offset = before + minutes * 60_000 - Date.now();
  app.clock.now = () => new Date(Date.now() + offset);
  // Scheduled messages (the SOS escalation) fall due on this clock.
  app.messenger?.worker?.wake();
  await publishEvent(db, 'course', { change: 'clock', riderId: null, riderNumber: null, kitName: null });
  return { exitCode: 0, output: `Server clock now ${app.clock.now().toISOString()}` };
}
