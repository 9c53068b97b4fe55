// The security check a registration is asked for when many riders register from one network
// (issue 26): the server hands out a proof-of-work challenge (ALTCHA's scheme), the phone
// searches for its answer in a Web Worker, and the form is sent again with the answer in the
// CHALLENGE_HEADER. Loaded only when the server asks: under the threshold nothing is solved.
import { type Challenge, challenge as challengeSchema } from '@rally/shared/contracts/challenge';
import { solveChallenge } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/web/pbkdf2';
import { call, client } from '../../../lib/api-client';

const FAILED = 'The security check could not finish. Please check your connection and send the form again.';

interface Solution {
  counter: number;
  derivedKey: string;
}

/** In a worker; on the main thread where workers are unavailable (the solver yields as it goes). */
async function solve(challenge: Challenge): Promise<Solution> {
  let worker: Worker | null = null;
  try {
    worker = new Worker(new URL('./challenge-worker.ts', import.meta.url), { type: 'module' });
  } catch {
    worker = null;
  }
  if (!worker) {
    const solution = await solveChallenge({ challenge, deriveKey });
    if (!solution) throw new Error(FAILED);
    return solution;
  }
  const running = worker;
  return new Promise<Solution>((resolve, reject) => {
    running.onmessage = (event: MessageEvent<{ solution?: Solution | null; error?: string }>) => {
      running.terminate();
      if (event.data.solution) resolve(event.data.solution);
      else reject(new Error(FAILED));
    };
    running.onerror = () => {
      running.terminate();
      reject(new Error(FAILED));
    };
    running.postMessage(challenge);
  });
}

/** A new challenge from the server, solved: the header value of the registration's next send. */
export async function solveRegistrationChallenge(): Promise<string> {
  const response = await call(client.GET('/api/auth/registration-challenge'));
  const parsed = challengeSchema.safeParse(response.data);
  if (!parsed.success) throw new Error(FAILED);
  // Sent back exactly as issued: its signature covers every parameter.
  const challenge: Challenge = response.data;
  const solution = await solve(challenge);
  return btoa(JSON.stringify({ challenge, solution }));
}
