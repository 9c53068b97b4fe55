import { describe, expect, it } from 'vitest';
import { KeyedQueue } from './keyed-queue';

const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A task that records when it starts and finishes only when told to. */
function gate(log: string[], name: string) {
  let open!: () => void;
  let fail!: (err: Error) => void;
  const done = new Promise<string>((resolve, reject) => {
    open = () => resolve(name);
    fail = reject;
  });
  return {
    task: () => {
      log.push(`start ${name}`);
      return done.finally(() => log.push(`end ${name}`));
    },
    open,
    fail,
  };
}

describe('KeyedQueue', () => {
  it('runs tasks of one key one at a time, in arrival order', async () => {
    const q = new KeyedQueue<number>();
    const log: string[] = [];
    const gates = [gate(log, 'a'), gate(log, 'b'), gate(log, 'c')] as const;
    const results = gates.map((g) => q.run(7, g.task));
    await tick();
    expect(log).toEqual(['start a']);
    gates[0].open();
    await tick();
    expect(log).toEqual(['start a', 'end a', 'start b']);
    gates[2].open(); // c may not start before b ends, even if its own work is ready
    await tick();
    expect(log).toEqual(['start a', 'end a', 'start b']);
    gates[1].open();
    expect(await Promise.all(results)).toEqual(['a', 'b', 'c']);
    expect(log).toEqual(['start a', 'end a', 'start b', 'end b', 'start c', 'end c']);
    expect(q.size).toBe(0);
  });

  it('runs tasks of different keys at the same time', async () => {
    const q = new KeyedQueue<number>();
    const log: string[] = [];
    const one = gate(log, '1');
    const two = gate(log, '2');
    const p1 = q.run(1, one.task);
    const p2 = q.run(2, two.task);
    await tick();
    expect(log).toEqual(['start 1', 'start 2']);
    expect(q.size).toBe(2);
    two.open();
    expect(await p2).toBe('2');
    expect(q.size).toBe(1);
    one.open();
    expect(await p1).toBe('1');
    expect(q.size).toBe(0);
  });

  it('releases the key when a task fails, and the next one still runs', async () => {
    const q = new KeyedQueue<string>();
    const log: string[] = [];
    const bad = gate(log, 'bad');
    const good = gate(log, 'good');
    const pBad = q.run('k', bad.task);
    const pGood = q.run('k', good.task);
    const pThrows = q.run('k', () => {
      throw new Error('sync throw');
    });
    const pLast = q.run('k', async () => 'last');
    bad.fail(new Error('boom'));
    await expect(pBad).rejects.toThrow('boom');
    good.open();
    await expect(pGood).resolves.toBe('good');
    await expect(pThrows).rejects.toThrow('sync throw');
    await expect(pLast).resolves.toBe('last');
    await tick();
    expect(q.size).toBe(0);
  });

  it('skips a waiting task whose signal aborts, keeps the order for the rest, and leaks nothing', async () => {
    const q = new KeyedQueue<number>();
    const log: string[] = [];
    const first = gate(log, 'first');
    const pFirst = q.run(5, first.task);
    const ac = new AbortController();
    let abortedRan = false;
    const pAborted = q.run(
      5,
      async () => {
        abortedRan = true;
      },
      ac.signal,
    );
    const third = gate(log, 'third');
    const pThird = q.run(5, third.task);
    ac.abort(new Error('client went away'));
    await expect(pAborted).rejects.toThrow('client went away');
    await tick();
    // The aborted one left the line, but the third still waits for the first.
    expect(log).toEqual(['start first']);
    first.open();
    await pFirst;
    await tick();
    expect(log).toEqual(['start first', 'end first', 'start third']);
    third.open();
    await pThird;
    await tick();
    expect(abortedRan).toBe(false);
    expect(q.size).toBe(0);
  });

  it('refuses a task whose signal is already aborted without touching the queue', async () => {
    const q = new KeyedQueue<number>();
    const ac = new AbortController();
    ac.abort(new Error('gone'));
    await expect(q.run(1, async () => 'never', ac.signal)).rejects.toThrow('gone');
    expect(q.size).toBe(0);
  });

  it('keeps no entry after many tasks on many keys, mixed outcomes', async () => {
    const q = new KeyedQueue<number>();
    const running = new Map<number, number>();
    let overlap = false;
    const outcomes = await Promise.allSettled(
      Array.from({ length: 300 }, (_, i) =>
        q.run(i % 7, async () => {
          const key = i % 7;
          running.set(key, (running.get(key) ?? 0) + 1);
          if ((running.get(key) ?? 0) > 1) overlap = true;
          await tick();
          running.set(key, (running.get(key) ?? 0) - 1);
          if (i % 5 === 0) throw new Error(`task ${i}`);
          return i;
        }),
      ),
    );
    expect(overlap).toBe(false);
    expect(outcomes.filter((o) => o.status === 'rejected')).toHaveLength(60);
    await tick();
    expect(q.size).toBe(0);
  });
});
