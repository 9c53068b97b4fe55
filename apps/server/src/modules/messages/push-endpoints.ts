// Where the server may post a push message (DESIGN.md §10): https endpoints of the known
// push services, or the hosts the operator listed in PUSH_ENDPOINT_HOSTS (plain http
// allowed for those: tests, private deployments). Anything else is refused with 400 when
// the subscription is given, so the server never posts to an address a user picked.
import { BadRequestError } from '../../lib/errors';

/** Host suffixes of the browsers' push services: Chrome/Edge (FCM), Firefox, Safari, Windows. */
const KNOWN_PUSH_SERVICES = [
  'fcm.googleapis.com',
  'android.googleapis.com',
  'updates.push.services.mozilla.com',
  'push.services.mozilla.com',
  'web.push.apple.com',
  'notify.windows.com',
] as const;

function isKnownService(host: string): boolean {
  return KNOWN_PUSH_SERVICES.some((suffix) => host === suffix || host.endsWith(`.${suffix}`));
}

/** The endpoint's URL when the server may post to it; else a 400 naming why. */
export function checkPushEndpoint(endpoint: string, allowedHosts: readonly string[]): URL {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    throw new BadRequestError('endpoint must be a URL', 'PUSH_ENDPOINT_REFUSED');
  }
  if (url.username || url.password)
    throw new BadRequestError('endpoint must not carry credentials', 'PUSH_ENDPOINT_REFUSED');
  const host = url.hostname.toLowerCase();
  const hostPort = `${host}:${url.port || (url.protocol === 'https:' ? '443' : '80')}`;
  if (allowedHosts.includes(hostPort) || allowedHosts.includes(url.host.toLowerCase())) {
    if (url.protocol === 'https:' || url.protocol === 'http:') return url;
  }
  if (url.protocol === 'https:' && isKnownService(host)) return url;
  throw new BadRequestError(
    'endpoint is not at a known push service (Google, Mozilla, Apple, Microsoft)',
    'PUSH_ENDPOINT_REFUSED',
  );
}
