// The past edition the console browses, for the screens that hide what they cannot do on it
// (the server refuses any write to a past edition anyway: 409 EDITION_READ_ONLY).
import type { Edition } from '@rally/shared/contracts/editions';
import { createContext, useContext } from 'react';

export const PastEditionContext = createContext<Edition | null>(null);

/** The past edition browsed, or null on the current one. */
export function usePastEdition(): Edition | null {
  return useContext(PastEditionContext);
}
