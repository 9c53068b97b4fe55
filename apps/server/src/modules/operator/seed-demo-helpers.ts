// Helpers the demo seed's parts share: a deterministic pick and back-dated timestamps.

/** The list's item at i, cycling, so the demo is the same on every run. */
export function pick<T>(list: readonly T[], i: number): T {
  const item = list[i % list.length];
  if (item === undefined) throw new Error('pick() needs a non-empty list');
  return item;
}

export function daysAgo(days: number, hours = 0): Date {
  return new Date(Date.now() - days * 86_400_000 - hours * 3_600_000);
}
