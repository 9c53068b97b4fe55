// Self-hosted proof-of-work challenges (ALTCHA's v2 scheme, altcha-lib), asked of a
// registration once its address has sent more than RATE_LIMIT_REGISTRATIONS in the hour
// (modules/registration). Riders behind one carrier-grade NAT or one club Wi-Fi share an
// address: past the threshold each of them spends a second of a phone's CPU, in the
// background, instead of being refused; a script registering in bulk pays that per
// registration. No third party is asked anything.
//
// A challenge is PBKDF2/SHA-256 at 1,000 iterations per try, in ALTCHA's deterministic mode:
// the server derives the key of a random counter below `work`, signs the parameters and
// the key's first half, and keeps nothing. The client tries counters from 0 until its key
// starts with that half (work/2 tries on average); the server checks the answer with one
// HMAC (the key signature), not by deriving it again. Each challenge is good for 10 minutes
// and spent by its first successful use, in the database, so every instance refuses a replay.
import { createHmac, randomInt as cryptoRandomInt, randomBytes } from 'node:crypto';
import { CHALLENGE_CODES, type Challenge } from '@rally/shared/contracts/challenge';
import { createChallenge, verifySolution } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2';
import type { ChallengeConfig } from '../config';
import type { Db } from '../db/client';
import { BadRequestError, ForbiddenError } from './errors';
import { claimOnce } from './rate-limit-store';
import { readOrCreateSecretFile } from './secret-file';

export const CHALLENGE_ALGORITHM = 'PBKDF2/SHA-256';
export const CHALLENGE_ITERATIONS = 1000;
/** Long enough for a phone on weak data to solve it and send the form again with its files. */
export const CHALLENGE_TTL_MS = 10 * 60_000;
/** Where a generated key is kept when REGISTRATION_CHALLENGE_KEY is not set. */
export const CHALLENGE_KEY_FILE = 'registration-challenge.key';
/** An ALTCHA payload of ours is ~600 bytes; anything far larger is not one. */
const MAX_PAYLOAD_LENGTH = 4096;

export const challengeRequired = () =>
  new ForbiddenError(
    'Many riders are registering from your network right now: please complete the security check and send again.',
    CHALLENGE_CODES.required,
  );
const unreadable = () =>
  new BadRequestError('The security check could not be verified. Please send the form again.', CHALLENGE_CODES.invalid);
const expired = () =>
  new BadRequestError('The security check has expired. Please send the form again.', CHALLENGE_CODES.expired);
const used = () =>
  new BadRequestError(
    'This security check was already used. Please send the form again for a new one.',
    CHALLENGE_CODES.used,
  );

export interface ProofOfWork {
  /** A new signed challenge. */
  issue(): Promise<Challenge>;
  /** Accepts a solved challenge once; throws a 400 (CHALLENGE_*) for anything else. */
  redeem(payload: string): Promise<void>;
}

/**
 * The key every challenge is signed with: REGISTRATION_CHALLENGE_KEY, or one generated at
 * the first challenge and kept in DATA_DIR (0600), so it survives restarts and is shared by
 * every instance on that directory. Instances on several machines must share the variable.
 * Created by linking a complete file into place: two instances starting together agree on one.
 */
export function challengeMasterKey(config: { challenge: ChallengeConfig; dataDir: string }): string {
  if (config.challenge.hmacKey) return config.challenge.hmacKey;
  return readOrCreateSecretFile(
    config.dataDir,
    CHALLENGE_KEY_FILE,
    () => randomBytes(32).toString('hex'),
    (key) => key.length >= 32,
  );
}

/** Two keys from one: one signs the parameters, the other the derived key (as ALTCHA's framework helpers do). */
function derive(master: string, purpose: string): string {
  return createHmac('sha256', master).update(purpose).digest('hex');
}

interface Submitted {
  challenge: Challenge;
  solution: { counter: number; derivedKey: string };
}

/** The payload's shape, or null: what a client sends is not trusted to be anything. */
function decode(payload: string): Submitted | null {
  if (payload.length > MAX_PAYLOAD_LENGTH) return null;
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(payload, 'base64').toString('utf8'));
  } catch {
    return null;
  }
  const v = value as Partial<Submitted> | null;
  const p = v?.challenge?.parameters as Record<string, unknown> | undefined;
  if (
    !p ||
    typeof v?.challenge?.signature !== 'string' ||
    typeof p.nonce !== 'string' ||
    !/^[0-9a-f]{2,64}$/.test(p.nonce) ||
    typeof p.salt !== 'string' ||
    !/^[0-9a-f]{2,64}$/.test(p.salt) ||
    typeof p.expiresAt !== 'number' ||
    typeof v.solution?.counter !== 'number' ||
    typeof v.solution.derivedKey !== 'string'
  )
    return null;
  return v as Submitted;
}

export function openProofOfWork(db: Db, config: { challenge: ChallengeConfig; dataDir: string }): ProofOfWork {
  // Read (or made) at the first challenge, not at start-up: a server whose registrations
  // never pass the threshold writes nothing into DATA_DIR.
  let secrets: { signature: string; keySignature: string } | undefined;
  const keys = () => {
    if (!secrets) {
      const master = challengeMasterKey(config);
      secrets = { signature: derive(master, 'challenge-signature'), keySignature: derive(master, 'key-signature') };
    }
    return secrets;
  };

  return {
    async issue() {
      const { signature, keySignature } = keys();
      const issued = await createChallenge({
        algorithm: CHALLENGE_ALGORITHM,
        cost: CHALLENGE_ITERATIONS,
        counter: cryptoRandomInt(0, config.challenge.work),
        deriveKey,
        expiresAt: new Date(Date.now() + CHALLENGE_TTL_MS),
        hmacSignatureSecret: signature,
        hmacKeySignatureSecret: keySignature,
      });
      return issued as Challenge;
    },

    async redeem(payload) {
      const submitted = decode(payload);
      if (!submitted) throw unreadable();
      const { signature, keySignature } = keys();
      let result: Awaited<ReturnType<typeof verifySolution>>;
      try {
        result = await verifySolution({
          challenge: submitted.challenge,
          solution: submitted.solution,
          deriveKey,
          hmacSignatureSecret: signature,
          hmacKeySignatureSecret: keySignature,
        });
      } catch {
        // Parameters that pass the shape check but not the library's own (a bad algorithm).
        throw unreadable();
      }
      if (result.expired) throw expired();
      if (!result.verified) throw unreadable();
      // Signed, so the nonce and the expiry are ours: the nonce names the challenge.
      const until = new Date((submitted.challenge.parameters.expiresAt as number) * 1000);
      if (!(await claimOnce(db, `challenge ${submitted.challenge.parameters.nonce}`, until))) throw used();
    },
  };
}
