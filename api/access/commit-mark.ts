/**
 * A number that moves whenever any connection (this process's, a daemon thread's, another process's,
 * an admin's sqlite3) has committed to a local database file since it was last asked: what
 * prepared-json-read.ts asks before every request-path read.
 *
 * SQLite's own answer, `PRAGMA data_version`, opens a read transaction, which takes and drops a lock on
 * the WAL index with two fcntl system calls; on the request path of an authenticated listing that was
 * the largest single cost (docs/performance.md, "Where the microseconds go"). In WAL mode (the only
 * mode shared/db/client.ts opens a file in) every commit rewrites the WAL-index header at the start of
 * the `-shm` file, as documented in SQLite's "WAL-mode File Format" (walformat.html): `iChange` counts
 * transactions, and `mxFrame`, the salts and checksums move with every commit and every WAL reset.
 * Readers of SQLite itself detect changes by comparing that header. So one `pread` of its two copies
 * (96 bytes), compared with what the last call saw, answers the same question without a lock: a commit
 * has written the header before it returns, and the kernel serves the read from the same page cache
 * the writers' shared mapping writes to. A read that overlaps a writer's update sees bytes that differ,
 * which only costs one unnecessary read of the database.
 *
 * The header is trusted only while it says it is one (version 3007000, initialized); otherwise, or when
 * the file has no `-shm`, `PRAGMA data_version` answers as before.
 *
 * The `-shm` descriptor is opened once and NEVER closed: closing any descriptor of a file drops every
 * POSIX lock this process holds on it, including the WAL-index locks of SQLite's own connections to the
 * same file in this process (the api's, the daemon thread's), which would let a writer reset the WAL
 * under their readers.
 */
import { openSync, readSync } from 'node:fs';
import type Database from 'libsql';

/** The WAL-index header's two copies (walformat.html §2.1: 48 bytes each). */
const HEADER_BYTES = 96;
/** `iVersion` of the WAL-index header this format describes. */
const WAL_INDEX_VERSION = 3007000;
/** Offset of `isInit`: nonzero once the header has been written. */
const IS_INIT_OFFSET = 12;

export type CommitMark = () => number;

function sharedMemoryOf(file: string): number | undefined {
  try {
    return openSync(`${file}-shm`, 'r');
  } catch {
    return undefined;
  }
}

/** The commit mark of `file`, read beside `connection` (a connection to that file that never writes). */
export function commitMark(connection: Database.Database, file: string): CommitMark {
  const dataVersion = connection.prepare('PRAGMA data_version').raw(true);
  // A first read opens the WAL index (creating `-shm` if no connection had yet).
  dataVersion.get();
  const shm = sharedMemoryOf(file);
  const header = Buffer.alloc(HEADER_BYTES);
  const seen = Buffer.alloc(HEADER_BYTES);
  let mark = 0;
  let lastDataVersion: unknown;

  const headerReadable = (): boolean => {
    if (shm === undefined) return false;
    if (readSync(shm, header, 0, HEADER_BYTES, 0) !== HEADER_BYTES) return false;
    const version =
      header.readUInt32LE(0) === WAL_INDEX_VERSION || header.readUInt32BE(0) === WAL_INDEX_VERSION;
    return version && header[IS_INIT_OFFSET] !== 0;
  };

  return () => {
    if (headerReadable()) {
      lastDataVersion = undefined;
      if (!header.equals(seen)) {
        header.copy(seen);
        mark++;
      }
      return mark;
    }
    seen.fill(0);
    const version = (dataVersion.get() as [number])[0];
    if (version !== lastDataVersion) {
      lastDataVersion = version;
      mark++;
    }
    return mark;
  };
}
