// Solves one proof-of-work challenge off the main thread, so the form stays responsive on a
// slow phone while it works (lib/registration-challenge.ts). The same solver and key
// derivation as the server's check (altcha-lib, PBKDF2/SHA-256 through Web Crypto).
import type { Challenge } from '@rally/shared/contracts/challenge';
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/web/pbkdf2';

self.onmessage = async (event: MessageEvent<Challenge>) => {
  try {
    const solution = await solveChallenge({ challenge: event.data, deriveKey });
    postMessage({ solution });
  } catch (error) {
    postMessage({ error: error instanceof Error ? error.message : String(error) });
  }
};
