import { isIPv4, isIPv6 } from 'node:net';

/** Where a request came from, as sessions and sign-in records keep it (route-helpers' clientInfo reads it). */
export interface ClientInfo {
  ip: string | null;
  userAgent: string | null;
}

/**
 * The key a per-address limit counts a client under. An IPv4 client is its address; an IPv6
 * client is its /64 network, because one subscriber (a phone, a home line) is handed a whole
 * /64 and may rotate through it at will: keyed on the full address, each request would start a
 * fresh count and add a row to `rate_limit_hits`. IPv4-mapped IPv6 addresses (`::ffff:a.b.c.d`,
 * how a dual-stack socket reports IPv4 clients) count as the IPv4 address.
 */
export function clientAddressKey(ip: string | null | undefined): string {
  if (!ip) return 'unknown';
  if (isIPv4(ip)) return ip;
  const zoneless = ip.split('%')[0] ?? ip;
  if (!isIPv6(zoneless)) return ip;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(zoneless);
  if (mapped?.[1] && isIPv4(mapped[1])) return mapped[1];
  const groups = expandIPv6(zoneless);
  return `${groups.slice(0, 4).join(':')}::/64`;
}

/** The eight 16-bit groups of a valid IPv6 address, lower-case, without leading zeros. */
function expandIPv6(ip: string): string[] {
  let text = ip.toLowerCase();
  // A trailing dotted IPv4 part (`64:ff9b::192.0.2.1`) is two groups.
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const zeros = tail === undefined ? [] : Array(8 - left.length - right.length).fill('0');
  return [...left, ...zeros, ...right].map((g) => Number.parseInt(g, 16).toString(16));
}
