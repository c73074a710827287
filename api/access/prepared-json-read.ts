/**
 * Reads on the request path whose answer is one JSON text column (the principal of a credential,
 * the stored bots): prepared ONCE per process, and not even run while the database is unchanged.
 *
 * Why not drizzle's `.prepare()` alone: over a local database file, @libsql/client prepares the SQL
 * text again on every execute and asks the statement for its columns twice, and drizzle maps the row
 * on top. For the principal's statement that was most of the cost of authenticating a request
 * (README "Performance"). So a local file gets one more native libSQL connection per process, on
 * which each statement is prepared once and then only bound and stepped.
 *
 * Before each read, the file's commit mark is asked (commit-mark.ts). It moves whenever any connection
 * has committed a change to the file since it was last asked: this process's drizzle connection,
 * another api process, a daemon, an admin's sqlite3 shell. This connection never writes, so an
 * unchanged mark proves the database is the same as when an answer was read, and the answer (already
 * parsed) is given again. Any commit empties the remembered answers. So answers are exactly as fresh
 * as reading on every request: a change committed before a request starts holds on that request, on
 * every process sharing the file, with nothing to invalidate by hand and no bus.
 *
 * Answers are shared by every request that gets them until the next commit, so they are frozen.
 * Nothing is remembered of a read that found no row (an unknown or revoked key costs a read).
 *
 * The file is the one SQLite reports for `db` itself, so the two connections cannot disagree about
 * it. A libSQL server or an in-memory database (which another connection could not see) keeps
 * drizzle's prepared statement and reads every time: there a read is a round trip anyway.
 */
import { fillPlaceholders } from 'drizzle-orm';
import Database from 'libsql';
import type { Db } from '../../shared/db/client';
import { type CommitMark, commitMark } from './commit-mark';

/** A SELECT (built with placeholders) whose one field `row` is the JSON text of the answer. */
export interface JsonRowQuery {
  toSQL(): { sql: string; params: unknown[] };
  prepare(): { get(values?: Record<string, unknown>): Promise<{ row: string } | undefined> };
}

/** Runs the read with its placeholders' values: the parsed answer, or undefined when no row matched. */
export type JsonRead<T> = (values?: Record<string, unknown>) => Promise<T | undefined>;

/** How long a read waits out a lock, as on the main connection (shared/db/client.ts). */
const BUSY_TIMEOUT_MS = 3000;
/** Answers remembered per read between two commits, at most (one per credential in use). */
const MAX_ANSWERS = 10_000;

/** The native read connection beside a database file, and that file's commit mark. */
interface ReadConnection {
  connection: Database.Database;
  commitMark: CommitMark;
}

const connections = new WeakMap<Db, Promise<ReadConnection | undefined>>();

/** The file of `db`'s main database as SQLite names it; undefined for a server or an in-memory one. */
async function localFileOf(db: Db): Promise<string | undefined> {
  if (db.$client.protocol !== 'file') return undefined;
  const { rows } = await db.$client.execute('PRAGMA database_list');
  const file = rows.find((row) => row.name === 'main')?.file;
  return typeof file === 'string' && file !== '' ? file : undefined;
}

async function openReadConnection(db: Db): Promise<ReadConnection | undefined> {
  const file = await localFileOf(db);
  if (file === undefined) return undefined;
  const connection = new Database(file);
  connection.exec(`PRAGMA busy_timeout = ${BUSY_TIMEOUT_MS}`);
  return { connection, commitMark: commitMark(connection, file) };
}

/** The native read connection beside `db`, opened on the first read (building the app reads nothing). */
function readConnection(db: Db): Promise<ReadConnection | undefined> {
  let connection = connections.get(db);
  if (!connection) {
    connection = openReadConnection(db);
    connections.set(db, connection);
    // A failed open is tried again by the next read rather than remembered.
    connection.catch(() => connections.delete(db));
  }
  return connection;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const field of Object.values(value)) deepFreeze(field);
  }
  return value;
}

async function prepare<T>(db: Db, query: JsonRowQuery, parse: (text: string) => T): Promise<JsonRead<T>> {
  const read = await readConnection(db);
  if (!read) {
    const prepared = query.prepare();
    return async (values) => {
      const found = await prepared.get(values);
      return found === undefined ? undefined : parse(found.row);
    };
  }
  const { sql, params } = query.toSQL();
  const statement = read.connection.prepare(sql).raw(true);
  let answeredAt: number | undefined;
  const answers = new Map<string, T>();
  return async (values = {}) => {
    const mark = read.commitMark();
    if (mark !== answeredAt || answers.size >= MAX_ANSWERS) {
      answers.clear();
      answeredAt = mark;
    }
    const bound = fillPlaceholders(params, values);
    const key = JSON.stringify(bound);
    const known = answers.get(key);
    if (known !== undefined) return known;
    const found = statement.get(bound) as [string] | undefined;
    if (found === undefined) return undefined;
    const answer = deepFreeze(parse(found[0]));
    answers.set(key, answer);
    return answer;
  };
}

/** A read of `query` whose JSON answer `parse` turns into what callers get. */
export function prepareJsonRead<T>(db: Db, query: JsonRowQuery, parse: (text: string) => T): JsonRead<T> {
  let prepared: Promise<JsonRead<T>> | undefined;
  return async (values) => {
    prepared ??= prepare(db, query, parse).catch((error: unknown) => {
      prepared = undefined;
      throw error;
    });
    return (await prepared)(values);
  };
}
