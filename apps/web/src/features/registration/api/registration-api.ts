import { CHALLENGE_CODES, CHALLENGE_HEADER } from '@rally/shared/contracts/challenge';
import { useQuery } from '@tanstack/react-query';
import { type ApiAnswer, ApiError, apiUpload, call, client } from '../../../lib/api-client';

export const takenNumbersKey = ['rider-numbers', 'taken'] as const;

/** Numbers already claimed. A failure reads as "none taken": the server still refuses a taken number with 409. */
export async function fetchTakenNumbers(): Promise<number[]> {
  try {
    return (await call(client.GET('/api/rider-numbers/taken'))).data.takenNumbers;
  } catch {
    return [];
  }
}

export function useTakenNumbers() {
  return useQuery({ queryKey: takenNumbersKey, queryFn: fetchTakenNumbers, staleTime: 15_000 });
}

type PaymentConfig = ApiAnswer<'/api/config/payment'>['data'];
/** Either account; only the bank transfer's names a bank. */
export type PaymentAccount = PaymentConfig['gcash'] | PaymentConfig['bank_transfer'];

export function usePaymentConfig() {
  return useQuery({
    queryKey: ['config', 'payment'],
    queryFn: async () => (await call(client.GET('/api/config/payment'))).data,
    staleTime: 5 * 60_000,
  });
}

/** The server asked for a security check, or refused an answer that expired or was used. */
function asksForCheck(error: unknown): boolean {
  if (!(error instanceof ApiError)) return false;
  const code = (error.body as { code?: unknown } | null)?.code;
  return Object.values(CHALLENGE_CODES).some((c) => c === code);
}

/**
 * Set once the server has asked this page for a security check: its network is busy, so a
 * later send (another number after a 409) solves first and uploads the files once.
 */
let checkAsked = false;

/**
 * Whether the server will ask this page's next registration for a check, asked before any
 * file is uploaded (else the files go once to be refused and again with the answer). A
 * failed question reads as "no": the refusal still says so, at the cost of a second upload.
 */
async function checkNeeded(): Promise<boolean> {
  try {
    return (await call(client.GET('/api/auth/registration-check'))).data.challengeRequired;
  } catch {
    return false;
  }
}

/**
 * Sends the registration. When many riders register from one network the server asks for a
 * proof-of-work (issue 26): asked first whether it will (so the files are sent once), it is
 * solved in the background, `onSecurityCheck` saying so meanwhile, and the form is sent with
 * the answer; a refusal all the same (the count moved meanwhile) solves and sends again.
 * Nothing typed is touched.
 */
export async function submitRegistration(
  form: FormData,
  onProgress: (percent: number) => void,
  onSecurityCheck: (running: boolean) => void = () => {},
) {
  const solve = async () => {
    onSecurityCheck(true);
    try {
      const { solveRegistrationChallenge } = await import('../lib/registration-challenge');
      return await solveRegistrationChallenge();
    } finally {
      onSecurityCheck(false);
    }
  };
  if (!checkAsked && (await checkNeeded())) checkAsked = true;
  let answer = checkAsked ? await solve() : undefined;
  for (let attempt = 0; ; attempt++) {
    try {
      return await apiUpload('/api/auth/register-with-uploads', form, {
        onProgress,
        headers: answer ? { [CHALLENGE_HEADER]: answer } : undefined,
      });
    } catch (error) {
      if (attempt > 0 || !asksForCheck(error)) throw error;
      checkAsked = true;
      onProgress(0);
      answer = await solve();
    }
  }
}
