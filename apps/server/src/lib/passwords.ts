import { hash, verify } from '@node-rs/argon2';
import { ARGON2_PARAMS } from '../config';
import { concurrencyLimit } from './concurrency-limit';

// 2 is Argon2id in @node-rs/argon2's (const) Algorithm enum.
const options = { algorithm: 2 as const, ...ARGON2_PARAMS };

// Each hash holds its 19 MB (memoryCost) while it runs, and glibc keeps what a libuv
// thread freed: one hash at a time cut the rush's peak on PostgreSQL from 249-256 to
// 229-230 MB at the same rate (a hash is ~10 ms; the rush is bound by image work and the
// database, docs/benchmarks.md "Memory").
const hashSlot = concurrencyLimit(1);

export function hashPassword(password: string): Promise<string> {
  return hashSlot(() => hash(password, options));
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  try {
    return await hashSlot(() => verify(passwordHash, password));
  } catch {
    return false;
  }
}

// Verifying against a real hash when the account does not exist keeps login timing the
// same for known and unknown emails.
let dummyHash: Promise<string> | undefined;
export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword('not-a-real-password-but-same-cost');
  return dummyHash;
}
