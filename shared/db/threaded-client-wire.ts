/**
 * What passes between a ThreadedClient and its database thread. A message is copied by structured
 * clone, which keeps a statement's arguments (strings, numbers, bigints, blobs, dates) but not what
 * libSQL's results and errors are made of: a row's values sit on non-enumerable index properties and
 * an error's class is LibsqlError. So results cross as plain arrays and errors as their fields, and the
 * receiving side rebuilds them as libSQL's local client makes them.
 */
import { LibsqlError, type ResultSet, type Row, type Value } from '@libsql/client';

/** A statement (or a transaction's end) for the thread; `transaction` names one `transaction` opened. */
export interface DbRequest {
  call: number;
  transaction?: number;
  method: DbMethod;
  args: unknown[];
}

export type DbMethod =
  | 'execute'
  | 'batch'
  | 'migrate'
  | 'executeMultiple'
  | 'transaction'
  | 'commit'
  | 'rollback'
  | 'close';

/**
 * The thread's answer to a request: a result set (execute), one per statement (batch, migrate), a
 * transaction's number (transaction) or nothing. A transaction's request also reports whether it is
 * over now: SQLite ends one on its own after some failures.
 */
export type DbReply = { call: number; transactionClosed?: boolean } & (
  | { ok: true; value: WireResultSet | WireResultSet[] | number | undefined }
  | { ok: false; error: WireError }
);

/** The thread could not open the database; it ends after saying so. */
export interface DbOpenFailure {
  openFailed: WireError;
}

export interface WireResultSet {
  columns: string[];
  columnTypes: string[];
  rows: Value[][];
  rowsAffected: number;
  lastInsertRowid: bigint | undefined;
}

export interface WireError {
  name: string;
  message: string;
  /** libSQL's code ('SQLITE_BUSY', 'TRANSACTION_CLOSED'…): present when the error was a LibsqlError. */
  code?: string;
  rawCode?: number | undefined;
}

export function wireResultSetOf({ columns, columnTypes, rows, rowsAffected, lastInsertRowid }: ResultSet) {
  return {
    columns,
    columnTypes,
    rows: rows.map((row) => Array.from(row)),
    rowsAffected,
    lastInsertRowid,
  } satisfies WireResultSet;
}

export function resultSetOf({ columns, columnTypes, rows, rowsAffected, lastInsertRowid }: WireResultSet) {
  const built = rows.map((values) => rowOf(values, columns));
  return new RowsResultSet(columns, columnTypes, built, rowsAffected, lastInsertRowid);
}

/**
 * A row as libSQL's local client shapes it: each value at its index (read-only, not enumerable), a
 * non-enumerable `length`, and the value under its column's name too (enumerable; of two columns with
 * one name, the first keeps it). Drizzle reads rows by index and by name, and `Object.keys` sees names.
 */
function rowOf(values: Value[], columns: string[]): Row {
  const row = {};
  Object.defineProperty(row, 'length', { value: values.length });
  values.forEach((value, index) => {
    Object.defineProperty(row, index, { value });
    const column = columns[index];
    if (column !== undefined && !Object.hasOwn(row, column))
      Object.defineProperty(row, column, { value, enumerable: true, configurable: true, writable: true });
  });
  return row as Row;
}

/** libSQL's ResultSet: its five fields as own properties, and toJSON as libSQL's own writes it. */
class RowsResultSet implements ResultSet {
  constructor(
    public columns: string[],
    public columnTypes: string[],
    public rows: Row[],
    public rowsAffected: number,
    public lastInsertRowid: bigint | undefined,
  ) {}

  toJSON() {
    return {
      columns: this.columns,
      columnTypes: this.columnTypes,
      rows: this.rows.map((row) => Array.from(row, jsonValueOf)),
      rowsAffected: this.rowsAffected,
      lastInsertRowid: this.lastInsertRowid === undefined ? null : String(this.lastInsertRowid),
    };
  }
}

/** JSON has no bigint and no bytes: a bigint becomes its digits, a blob its base64. */
function jsonValueOf(value: Value): string | number | null {
  if (typeof value === 'bigint') return String(value);
  if (value instanceof ArrayBuffer) return Buffer.from(value).toString('base64');
  return value;
}

export function wireErrorOf(error: unknown): WireError {
  if (error instanceof LibsqlError) {
    // LibsqlError puts its code before the message it is given; rebuilding it adds the code again.
    const prefix = `${error.code}: `;
    const message = error.message.startsWith(prefix) ? error.message.slice(prefix.length) : error.message;
    return { name: error.name, message, code: error.code, rawCode: error.rawCode };
  }
  if (error instanceof Error) return { name: error.name, message: error.message };
  return { name: 'Error', message: String(error) };
}

/** The arguments' checks throw these (a NaN, an undefined); any other kind comes back as an Error. */
const PLAIN_ERRORS: Record<string, ErrorConstructor> = { RangeError, TypeError };

export function errorOf({ name, message, code, rawCode }: WireError): Error {
  if (code !== undefined) return new LibsqlError(message, code, rawCode);
  const error = new (PLAIN_ERRORS[name] ?? Error)(message);
  error.name = name;
  return error;
}
