/**
 * The daemon's database handle. The daemon's thread runs every bot's 20 ms frame clock, and the local
 * libSQL client would run each statement on it synchronously: a write that meets another writer's lock
 * waits up to the busy timeout (3 s), and every bot of the daemon with it (a play-history insert was
 * seen holding the clock 1.4 s). So a local file's statements run on a thread of their own
 * (ThreadedClient); a libSQL server is reached asynchronously already and gets the plain client.
 */
import { type Db, dbOn, openDb } from './client';
import type { DbOptions } from './libsql-client';
import { ThreadedClient } from './threaded-client';

export function openDaemonDb(options: DbOptions): Db {
  return options.url.startsWith('file:') ? dbOn(new ThreadedClient(options)) : openDb(options);
}
