import { hash, verify } from '@node-rs/argon2';
import { ARGON2_PARAMS } from '../config';
import { concurrencyLimit } from './concurrency-limit';

// 2 is Argon2id in @node-rs/argon2's (const) Algorithm enum.
const options = { algorithm: 2 as const, ...ARGON2_PARAMS };

// Each hash holds its 19 MB (memoryCost) while it runs (docs/benchmarks.md, "Memory").
const hashSlot = concurrencyLimit();

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
