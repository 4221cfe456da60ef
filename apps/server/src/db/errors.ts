/** Whether a database error is a UNIQUE violation, on SQLite (better-sqlite3) or PostgreSQL (pg). */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const code = (error as { code?: unknown }).code;
  return code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || code === '23505';
}

// PostgreSQL SQLSTATEs of a server going away or refusing connections: admin_shutdown,
// crash_shutdown, cannot_connect_now (starting up or shutting down), too_many_connections
const PG_UNAVAILABLE = new Set(['57P01', '57P02', '57P03', '53300']);
// class 08: connection exceptions
const PG_CONNECTION_CLASS = /^08[0-9A-Z]{3}$/;

// socket failures on the way to the database
const SOCKET_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
]);

// SQLite failures of the file or a lock, not of the query: busy, locked, I/O, disk full, cannot open
const SQLITE_UNAVAILABLE = /^SQLITE_(BUSY|LOCKED|IOERR|FULL|CANTOPEN|PROTOCOL)(_|$)/;

// pg, pg-pool, Kysely and better-sqlite3 say these in the message alone, without a code
const MESSAGES = [
  /^Connection terminated/,
  /^timeout exceeded when trying to connect$/,
  /^Client has encountered a connection error and is not queryable$/,
  /^Client was closed and is not queryable$/,
  /^Cannot use a pool after calling end on the pool$/,
  /^driver has already been destroyed$/,
  /^The database connection is not open$/,
];

/**
 * Whether an error means the database cannot be reached or used right now (connection lost,
 * server shutting down or starting, pool timed out, SQLite file busy or failing), as opposed to
 * a fault of the query. Such a request may succeed when retried: it is a 503, not a 500.
 */
export function isDatabaseUnavailable(error: unknown, depth = 0): boolean {
  if (typeof error !== 'object' || error === null || depth > 4) return false;
  const { code, message, syscall, errors, cause } = error as {
    code?: unknown;
    message?: unknown;
    syscall?: unknown;
    errors?: unknown;
    cause?: unknown;
  };
  if (typeof code === 'string') {
    if (PG_UNAVAILABLE.has(code) || PG_CONNECTION_CLASS.test(code)) return true;
    if (SOCKET_CODES.has(code) || syscall === 'connect') return true;
    if (SQLITE_UNAVAILABLE.test(code)) return true;
  }
  if (typeof message === 'string' && MESSAGES.some((pattern) => pattern.test(message))) return true;
  // a connect to a name with several addresses fails with an AggregateError of each attempt
  if (Array.isArray(errors) && errors.some((inner) => isDatabaseUnavailable(inner, depth + 1))) return true;
  return isDatabaseUnavailable(cause, depth + 1);
}
