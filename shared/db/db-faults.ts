/**
 * Database failures that are the database's state, not the request's fault: another writer holding the
 * lock, a full disk, an unwritable or unreadable file. They are told apart from defects so a caller can
 * answer them as what they are (503 try again, 507 out of space) instead of a generic 500; a retry of
 * the same request succeeds once the fault is over.
 *
 * libSQL reports SQLite's result code on its errors (`code` 'SQLITE_BUSY', `rawCode` 5); drizzle wraps
 * them, so the whole `cause` chain is read.
 */

export interface DbFault {
  status: 503 | 507;
  message: string;
}

/** SQLite primary result codes (sqlite.org/rescode.html); extended codes carry them in their low byte. */
const PRIMARY_CODES: Record<number, DbFault> = {
  5: { status: 503, message: 'the database is busy (another writer holds it); try again in a moment' },
  6: { status: 503, message: 'the database is busy (a table is locked); try again in a moment' },
  8: { status: 503, message: 'the database is read-only right now; ask an admin to check its file' },
  10: { status: 503, message: 'the database could not be read or written (I/O error); try again later' },
  13: { status: 507, message: 'the database is out of space; an admin must free disk space' },
  14: { status: 503, message: 'the database file cannot be opened; ask an admin to check it' },
};

const NAMED_CODES: Record<string, number> = {
  SQLITE_BUSY: 5,
  SQLITE_LOCKED: 6,
  SQLITE_READONLY: 8,
  SQLITE_IOERR: 10,
  SQLITE_FULL: 13,
  SQLITE_CANTOPEN: 14,
};

/** The fault behind `error`, or undefined when it is not one of the database's own states. */
export function dbFaultOf(error: unknown): DbFault | undefined {
  for (let cause = error, depth = 0; cause instanceof Error && depth < 5; depth++) {
    const fault = faultOfCodes(cause as Error & { code?: unknown; rawCode?: unknown });
    if (fault) return fault;
    cause = cause.cause;
  }
  return undefined;
}

function faultOfCodes({ code, rawCode }: { code?: unknown; rawCode?: unknown }): DbFault | undefined {
  if (typeof rawCode === 'number') {
    const fault = PRIMARY_CODES[rawCode & 0xff];
    if (fault) return fault;
  }
  if (typeof code !== 'string') return undefined;
  const named = Object.entries(NAMED_CODES).find(([name]) => code === name || code.startsWith(`${name}_`));
  return named ? PRIMARY_CODES[named[1]] : undefined;
}
