import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, type TestApp } from '../test/build-app';
import { runTestClockCommand } from './test-clock';

describe('test-clock control command', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp('pglite');
  });
  afterAll(async () => t?.close());

  it('is refused unless the server was started with RALLY_TEST_CLOCK=1', async () => {
    const before = t.app.clock.now().getTime();
    const result = await runTestClockCommand(t.app, t.database.db, { 'advance-minutes': '60' }, false);
    expect(result.exitCode).toBe(1);
    expect(result.output).toMatch(/RALLY_TEST_CLOCK=1/);
    expect(Math.abs(t.app.clock.now().getTime() - before)).toBeLessThan(5_000);
  });

  it('moves the clock forward and announces it as a course event', async () => {
    const events: unknown[] = [];
    const stop = t.app.eventBus.subscribe((e) => events.push(e));
    const before = t.app.clock.now().getTime();
    const result = await runTestClockCommand(t.app, t.database.db, { 'advance-minutes': '90' }, true);
    expect(result.exitCode, result.output).toBe(0);
    expect(t.app.clock.now().getTime() - before).toBeGreaterThanOrEqual(90 * 60_000);
    expect(t.app.clock.now().getTime() - before).toBeLessThan(90 * 60_000 + 5_000);
    await expect.poll(() => events.some((e) => (e as { type: string }).type === 'course')).toBe(true);
    stop();
    const bad = await runTestClockCommand(t.app, t.database.db, { 'advance-minutes': '-5' }, true);
    expect(bad.exitCode).toBe(1);
  });
});
