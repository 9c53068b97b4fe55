import { useSyncExternalStore } from 'react';

const noSubscription = () => () => {};
const onClient = () => true;
const inPrerender = () => false;

/**
 * False in the build's prerender and during hydration of it, true from the first render
 * after (and at once when the page was not prerendered). A prerendered form shows while its
 * scripts still load: until React owns it, a tap on submit would send it natively and what
 * is typed could be lost, so such a form stays disabled until this turns true.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(noSubscription, onClient, inPrerender);
}
