// New passwords are checked against the ~49,000 most common passwords of the zxcvbn-ts
// dictionary, bundled with the server: no breach look-up over the network (the product
// may run on a closed network at the event). The comparison ignores case, so
// "Password1" is refused like "password1".
import { dictionary } from '@zxcvbn-ts/language-common';
import { BadRequestError } from './errors';

export const COMMON_PASSWORD_MESSAGE =
  'This password is too common and easy to guess. Please choose a less predictable one.';

let common: Set<string> | undefined;

export function isCommonPassword(password: string): boolean {
  common ??= new Set(dictionary['passwords-common'] as string[]);
  return common.has(password.toLowerCase());
}

/** Throws the 400 every password-setting route answers for a common password. */
export function assertUncommonPassword(password: string): void {
  if (isCommonPassword(password)) throw new BadRequestError(COMMON_PASSWORD_MESSAGE, 'COMMON_PASSWORD');
}
