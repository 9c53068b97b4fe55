// New passwords are checked against the ~49,000 most common passwords of the zxcvbn-ts
// dictionary, bundled with the server: no breach look-up over the network (the product
// may run on a closed network at the event). The comparison ignores case, so
// "Password1" is refused like "password1". The dictionary (~1 MB of JavaScript) loads with
// the first password set, not at start: a restart during the event answers sooner.
import { createRequire } from 'node:module';
import { BadRequestError } from './errors';

export const COMMON_PASSWORD_MESSAGE =
  'This password is too common and easy to guess. Please choose a less predictable one.';

let common: Set<string> | undefined;

export function isCommonPassword(password: string): boolean {
  if (!common) {
    const { dictionary } = createRequire(import.meta.url)('@zxcvbn-ts/language-common') as {
      dictionary: Record<string, string[]>;
    };
    common = new Set(dictionary['passwords-common']);
  }
  return common.has(password.toLowerCase());
}

/** Throws the 400 every password-setting route answers for a common password. */
export function assertUncommonPassword(password: string): void {
  if (isCommonPassword(password)) throw new BadRequestError(COMMON_PASSWORD_MESSAGE, 'COMMON_PASSWORD');
}
