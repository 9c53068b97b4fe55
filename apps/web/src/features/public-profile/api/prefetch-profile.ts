// Loaded by the router's preload when a rider's public profile is opened from a link: the
// profile's answer is asked for while the page's code is still downloading, and the page's
// query finds it in the cache (same key, same fetch) instead of asking again.
import { queryClient } from '../../../lib/query-client';
import { DEMO_ID } from '../lib/demo-profile';
import { fetchPublicProfile, profileKeys } from './profile-api';

export function prefetchPublicProfile(id: string): void {
  // The demo profile is made on the device (its page asks for nothing).
  if (!id || id === DEMO_ID) return;
  void queryClient.prefetchQuery({ queryKey: profileKeys.profile(id), queryFn: () => fetchPublicProfile(id) });
}
