// The rider's pass must open with no signal: the last good answers of the
// rider code and the passages are kept on the phone, per account, and shown at once on the
// next visit while a fresh copy is asked for. localStorage rather than IndexedDB: the two
// answers are a few hundred bytes, and a synchronous read lets the pass paint on the first
// render offline instead of after an async gap. Only answers the server gave are kept, and
// a 404 (no rider code any more) drops the copy.
import { PASS_CACHE_PREFIX, readStorage, removeStorage, writeStorage } from '../../../lib/storage';

type Kept = 'riderCode' | 'passages';

interface Saved<T> {
  data: T;
  savedAt: number;
}

const keyOf = (userId: string, name: Kept) => `${PASS_CACHE_PREFIX}${userId}.${name}`;

export function recallAnswer<T>(userId: string, name: Kept): Saved<T> | undefined {
  const text = readStorage(keyOf(userId, name));
  if (!text) return undefined;
  try {
    const parsed = JSON.parse(text) as Saved<T>;
    return typeof parsed.savedAt === 'number' && parsed.data !== undefined ? parsed : undefined;
  } catch {
    return undefined;
  }
}

export function rememberAnswer<T>(userId: string, name: Kept, data: T): void {
  writeStorage(keyOf(userId, name), JSON.stringify({ data, savedAt: Date.now() } satisfies Saved<T>));
}

export function forgetAnswer(userId: string, name: Kept): void {
  removeStorage(keyOf(userId, name));
}
