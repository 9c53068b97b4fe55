// The proof-of-work challenge a registration must carry once one address has sent many in an
// hour (issue 26: a crowd on one address is not an attack). ALTCHA's v2 scheme (altcha-lib):
// the server signs random parameters, the client searches for the counter whose derived key
// starts with the signed prefix, and sends the challenge with its solution, base64-encoded
// JSON, in the CHALLENGE_HEADER of the registration request.
import { z } from 'zod';
import { envelope } from './common';

/** The request header carrying a solved challenge (ALTCHA's payload format). */
export const CHALLENGE_HEADER = 'x-altcha';

/** The error codes of the check: asked for (403), and refused (400). */
export const CHALLENGE_CODES = {
  required: 'CHALLENGE_REQUIRED',
  invalid: 'CHALLENGE_INVALID',
  expired: 'CHALLENGE_EXPIRED',
  used: 'CHALLENGE_USED',
} as const;

/**
 * A challenge as issued. The signature covers every parameter, so the object must travel
 * back exactly as received: unknown keys are kept, not stripped.
 */
export const challenge = z.object({
  parameters: z.looseObject({
    algorithm: z.string(),
    nonce: z.string(),
    salt: z.string(),
    cost: z.number().int(),
    keyLength: z.number().int(),
    keyPrefix: z.string(),
    keySignature: z.string().optional(),
    expiresAt: z.number().optional(),
  }),
  signature: z.string(),
});
export type Challenge = z.infer<typeof challenge>;

export const challengeResponse = envelope(challenge);

/**
 * Whether this address's next registration must carry a solved challenge
 * (GET /api/auth/registration-check): the form asks before it uploads anything, so the files
 * go once, with the answer, rather than first to be told a check is needed.
 */
export const registrationCheckResponse = envelope(z.object({ challengeRequired: z.boolean() }));
