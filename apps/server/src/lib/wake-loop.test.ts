import type { FastifyBaseLogger } from 'fastify';
import { describe, expect, it } from 'vitest';
import { WakeLoop } from './wake-loop';

/** A logger that keeps what it was told, so a test can read the worker's log lines. */
function recordingLog() {
  const lines: Array<{ level: string; fields: object; message: string }> = [];
  const at =
    (level: string) =>
    (fields: object, message = '') =>
      lines.push({ level, fields, message });
  const log = {
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    debug: at('debug'),
    trace: at('trace'),
    fatal: at('fatal'),
    child: () => log,
    level: 'info',
    silent: () => {},
  } as unknown as FastifyBaseLogger;
  return { log, lines };
}

/** A worker whose rounds are the test's: each round runs the next function given. */
class ScriptedLoop extends WakeLoop {
  readonly renewed: string[][] = [];
  rounds = 0;
  private renewedNext: (() => void) | null = null;

  constructor(
    private readonly script: Array<(loop: ScriptedLoop) => Promise<number | null>>,
    log: FastifyBaseLogger,
    leaseSeconds = 30,
  ) {
    super({ channel: 'test_wake_loop', what: 'test', log, leaseSeconds });
  }

  protected override round(): Promise<number | null> {
    const step = this.script[this.rounds] ?? (async () => null);
    this.rounds += 1;
    return step(this);
  }

  protected override async renewLeases(ids: string[]): Promise<void> {
    this.renewed.push(ids);
    this.renewedNext?.();
  }

  /** Resolves at the next lease renewal. */
  nextRenewal(): Promise<void> {
    return new Promise((resolve) => {
      this.renewedNext = resolve;
    });
  }

  holdRows(ids: string[]): void {
    this.hold(ids);
  }

  releaseRow(id: string): void {
    this.release(id);
  }
}

/** A promise with its resolve outside, for rounds that end when the test says. */
function gate<T = void>() {
  let open!: (value: T) => void;
  const opened = new Promise<T>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

describe('WakeLoop', () => {
  it('runs one more round when woken during a round, and idle() waits for both', async () => {
    const first = gate();
    const loop = new ScriptedLoop(
      [
        async () => {
          await first.opened;
          return null;
        },
      ],
      recordingLog().log,
    );
    loop.wake();
    // Woken while the first round runs: the row may have been written after its claim.
    loop.wake();
    loop.wake();
    const idle = loop.idle();
    first.open();
    await idle;
    expect(loop.rounds).toBe(2);
    await loop.stop();
  });

  it('tries a failed round again by itself after a backoff, and says so in the log', async () => {
    const { log, lines } = recordingLog();
    const retried = gate();
    const loop = new ScriptedLoop(
      [
        async () => {
          throw new Error('database away');
        },
        async () => {
          retried.open();
          return null;
        },
      ],
      log,
    );
    const started = Date.now();
    loop.wake();
    await loop.idle();
    expect(lines).toEqual([
      expect.objectContaining({
        level: 'error',
        message: 'test worker failed; trying again shortly',
        fields: expect.objectContaining({ retryInMs: 1_000 }),
      }),
    ]);
    await retried.opened;
    expect(Date.now() - started).toBeGreaterThanOrEqual(1_000);
    expect(loop.rounds).toBe(2);
    await loop.stop();
  });

  it('sleeps until the moment its round says the next row falls due', async () => {
    const due = gate();
    const loop = new ScriptedLoop(
      [
        async () => 40,
        async () => {
          due.open();
          return null;
        },
      ],
      recordingLog().log,
    );
    const started = Date.now();
    loop.wake();
    await due.opened;
    expect(Date.now() - started).toBeGreaterThanOrEqual(40);
    await loop.stop();
  });

  it('renews the leases of rows in flight every third of a lease, only while any is held', async () => {
    const done = gate();
    // A lease of 30 ms: renewed every 10 ms.
    const loop = new ScriptedLoop(
      [
        async (l) => {
          l.holdRows(['a', 'b']);
          await l.nextRenewal();
          l.releaseRow('a');
          await l.nextRenewal();
          l.releaseRow('b');
          done.open();
          return null;
        },
      ],
      recordingLog().log,
      0.03,
    );
    loop.wake();
    await done.opened;
    await loop.idle();
    expect(loop.renewed[0]).toEqual(['a', 'b']);
    expect(loop.renewed.at(-1)).toEqual(['b']);
    const count = loop.renewed.length;
    // Nothing held: no renewal comes, however long one waits (five lease thirds here).
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(loop.renewed.length).toBe(count);
    await loop.stop();
  });

  it('after stop(), lets the running round end, frees its waiters and neither sleeps nor wakes again', async () => {
    const held = gate();
    const loop = new ScriptedLoop(
      [
        async () => {
          // Stopped while this round runs: idle() resolves once it ends, not at the next one.
          await held.opened;
          return 60_000;
        },
      ],
      recordingLog().log,
    );
    loop.wake();
    const idle = loop.idle();
    const stopped = loop.stop();
    held.open();
    await Promise.all([idle, stopped]);
    loop.wake();
    expect(loop.rounds).toBe(1);
    await expect(loop.idle()).resolves.toBeUndefined();
  });
});
