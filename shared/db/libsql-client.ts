/**
 * The libSQL client under every database handle: openDb's (client.ts) and, for the daemon, the one its
 * database thread owns (threaded-client-worker.ts), which loads this without drizzle. A `file:` URL is
 * a local file (its folder is created); any other URL is a libSQL server, reached with
 * DATABASE_AUTH_TOKEN when one is set.
 *
 * A local file's per-connection settings (CONNECTION_PRAGMAS) are applied to every connection the
 * client opens: libSQL hands its connection to each transaction and opens a fresh one for what comes
 * next, which would otherwise run without them (no busy timeout: a write meeting another writer's lock
 * would fail at once instead of waiting it out).
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { type Client, createClient } from '@libsql/client';

export interface DbOptions {
  url: string;
  authToken?: string | undefined;
}

/**
 * - busy_timeout waits out short write locks (the api and the daemon write at once) instead of failing
 *   with SQLITE_BUSY at once. It stays under the bus deadline (BUS_TIMEOUT_MS, 4 s), so a daemon write
 *   that meets a long-held lock still answers its own "database busy" in time.
 * - foreign_keys makes deletes cascade.
 * - synchronous = NORMAL: in WAL mode a commit then waits for no fsync (the WAL is synced at each
 *   checkpoint instead). The local client runs a statement synchronously on the thread that owns it:
 *   the api's own thread, and the daemon's database thread. A row under FULL took 7 ms at the median
 *   and up to 185 ms on this project's test machine, 0.05 ms under NORMAL. A crashed or killed process
 *   still loses nothing committed; only an operating-system crash or a power cut may take back the
 *   last commits, and never corrupts the file.
 */
const CONNECTION_PRAGMAS = [
  'PRAGMA busy_timeout = 3000',
  'PRAGMA foreign_keys = ON',
  'PRAGMA synchronous = NORMAL',
];

export function openLibsqlClient({ url, authToken }: DbOptions): Client {
  if (url.startsWith('file:')) {
    const path = url.slice('file:'.length);
    if (path && path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  }
  const client = createClient(authToken ? { url, authToken } : { url });
  if (client.protocol === 'file') keepPragmasOnEveryConnection(client);
  return client;
}

/**
 * Applies the pragmas to the current connection now, and to the next one each time a transaction
 * takes the current one away. The local client runs a statement synchronously inside `execute`, so
 * the pragmas are in place before any other statement can reach the new connection.
 */
function keepPragmasOnEveryConnection(client: Client): void {
  const applyPragmas = () => {
    for (const pragma of CONNECTION_PRAGMAS) void client.execute(pragma).catch(() => undefined);
  };
  applyPragmas();
  const transaction = client.transaction.bind(client);
  client.transaction = ((mode) => {
    const started = transaction(mode);
    applyPragmas();
    return started;
  }) as Client['transaction'];
}
