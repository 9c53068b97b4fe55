// Whether an error means the database could not be reached or did not answer in time (a
// restart, a failover, a dead network path, a saturated pool), as opposed to a query it
// refused. The API answers those with 503 and a Retry-After, never a hang or a 500: the
// request can simply be tried again (every write of the event day is idempotent).

/** SQLSTATEs of a connection lost or refused, a server shutting down or starting, a statement timed out. */
const UNAVAILABLE_STATES = new Set([
  '08000', // connection_exception
  '08001', // sqlclient_unable_to_establish_sqlconnection
  '08003', // connection_does_not_exist
  '08004', // sqlserver_rejected_establishment_of_sqlconnection
  '08006', // connection_failure
  '57P01', // admin_shutdown: "terminating connection due to administrator command"
  '57P02', // crash_shutdown
  '57P03', // cannot_connect_now: "the database system is starting up"
  '53300', // too_many_connections
]);

/** Socket errors of a database that is not there (yet). */
const UNAVAILABLE_ERRNOS = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH']);

/** node-postgres's own words for a connection it gave up on. */
const UNAVAILABLE_MESSAGES = [
  /^Connection terminated/,
  /^timeout exceeded when trying to connect/,
  /^Query read timeout$/,
  /not queryable/,
  /^canceling statement due to statement timeout$/,
  // A database closed to connections for maintenance (ALTER DATABASE ... ALLOW_CONNECTIONS false).
  /is not currently accepting connections$/,
];

export function isDatabaseUnavailable(error: unknown): boolean {
  // Drizzle wraps the driver's error in its own (`cause`); follow the chain a few steps.
  let e: unknown = error;
  for (let depth = 0; depth < 4 && e && typeof e === 'object'; depth += 1) {
    const { code, message, cause } = e as { code?: unknown; message?: unknown; cause?: unknown };
    if (typeof code === 'string' && (UNAVAILABLE_STATES.has(code) || UNAVAILABLE_ERRNOS.has(code))) return true;
    if (code === '57014' && typeof message === 'string' && /statement timeout/.test(message)) return true;
    if (typeof message === 'string' && UNAVAILABLE_MESSAGES.some((re) => re.test(message))) return true;
    e = cause;
  }
  return false;
}
