/**
 * A libSQL client for a local file whose statements run on a worker thread of their own. libSQL's
 * local client runs each statement synchronously on the calling thread, and a write that meets another
 * writer's lock waits there for up to the busy timeout (3 s); this one sends the statement to its
 * thread (threaded-client-worker.ts, which owns a client opened as openDb opens one) and awaits the
 * answer, so the calling thread keeps running meanwhile. Results and errors come back shaped as
 * libSQL's own (threaded-client-wire.ts), so drizzle and dbFaultOf read them as they read the local
 * client's.
 *
 * `close()` ends the thread and resolves once it has ended; later statements are refused with
 * libSQL's CLIENT_CLOSED error. A thread that ends unexpectedly fails its pending statements and every
 * later one. Between statements the thread does not keep the process alive.
 */
import { Worker } from 'node:worker_threads';
import {
  type Client,
  type InArgs,
  type InStatement,
  LibsqlError,
  type Replicated,
  type ResultSet,
  type Transaction,
  type TransactionMode,
} from '@libsql/client';
import type { DbOptions } from './libsql-client';
import {
  type DbMethod,
  type DbOpenFailure,
  type DbReply,
  type DbRequest,
  errorOf,
  resultSetOf,
  type WireResultSet,
} from './threaded-client-wire';

interface PendingCall {
  resolve(value: unknown): void;
  reject(error: Error): void;
  transaction: ThreadedTransaction | undefined;
}

const clientClosed = () => new LibsqlError('The client is closed', 'CLIENT_CLOSED');

export class ThreadedClient implements Client {
  readonly protocol = 'file';
  readonly #worker: Worker;
  readonly #calls = new Map<number, PendingCall>();
  #nextCall = 1;
  /** Why statements are refused (the client closed, its thread gone); undefined while it takes them. */
  #refusal: (() => Error) | undefined;
  readonly #ended: Promise<void>;

  constructor(options: DbOptions) {
    // Worker threads start without the TypeScript loader; the bootstrap registers it.
    this.#worker = new Worker(new URL('./threaded-client-bootstrap.mjs', import.meta.url), {
      workerData: options,
    });
    this.#worker.unref();
    this.#worker.on('message', (message: DbReply | DbOpenFailure) => this.#receive(message));
    let failure: Error | undefined;
    this.#worker.on('error', (error) => {
      failure = error;
    });
    this.#ended = new Promise((resolve) =>
      this.#worker.once('exit', (code) => {
        this.#threadEnded(failure ?? (code === 0 ? undefined : new Error(`exit code ${code}`)));
        resolve();
      }),
    );
  }

  get closed(): boolean {
    return this.#refusal !== undefined;
  }

  execute(stmtOrSql: InStatement, args?: InArgs): Promise<ResultSet> {
    return this.#call<WireResultSet>('execute', [stmtOrSql, args]).then(resultSetOf);
  }

  batch(stmts: Array<InStatement | [string, InArgs?]>, mode?: TransactionMode): Promise<ResultSet[]> {
    return this.#call<WireResultSet[]>('batch', [stmts, mode]).then((sets) => sets.map(resultSetOf));
  }

  migrate(stmts: InStatement[]): Promise<ResultSet[]> {
    return this.#call<WireResultSet[]>('migrate', [stmts]).then((sets) => sets.map(resultSetOf));
  }

  executeMultiple(sql: string): Promise<void> {
    return this.#call('executeMultiple', [sql]);
  }

  async transaction(mode?: TransactionMode): Promise<Transaction> {
    const number = await this.#call<number>('transaction', [mode]);
    return new ThreadedTransaction(<T>(method: DbMethod, args: unknown[], transaction: ThreadedTransaction) =>
      this.#call<T>(method, args, { number, transaction }),
    );
  }

  /** Ends the thread (after the statements already sent) and resolves once it has ended. */
  async close(): Promise<void> {
    if (!this.#refusal) {
      const closing = this.#call('close', []);
      this.#refusal = clientClosed;
      // Kept alive until the thread has ended, so a process awaiting this does not exit before.
      this.#worker.ref();
      await closing;
    }
    await this.#ended;
  }

  sync(): Promise<Replicated> {
    return Promise.reject(new LibsqlError('A local file has no replica to sync', 'SYNC_NOT_SUPPORTED'));
  }

  /** libSQL's reconnect opens a connection without this project's pragmas; nothing here needs it. */
  reconnect(): void {
    throw new LibsqlError(
      'The threaded client does not reconnect; open a new one',
      'RECONNECT_NOT_SUPPORTED',
    );
  }

  #call<T = undefined>(
    method: DbMethod,
    args: unknown[],
    on?: { number: number; transaction: ThreadedTransaction },
  ): Promise<T> {
    if (this.#refusal) return Promise.reject(this.#refusal());
    const call = this.#nextCall++;
    const request: DbRequest = { call, method, args, ...(on ? { transaction: on.number } : {}) };
    return new Promise<T>((resolve, reject) => {
      this.#calls.set(call, {
        resolve: resolve as (value: unknown) => void,
        reject,
        transaction: on?.transaction,
      });
      this.#worker.ref();
      this.#worker.postMessage(request);
    });
  }

  #receive(message: DbReply | DbOpenFailure): void {
    if ('openFailed' in message) {
      const failure = errorOf(message.openFailed);
      this.#refusal = () => failure;
      return;
    }
    const pending = this.#calls.get(message.call);
    if (!pending) return;
    this.#calls.delete(message.call);
    if (pending.transaction && message.transactionClosed !== undefined)
      pending.transaction.closed = message.transactionClosed;
    if (message.ok) pending.resolve(message.value);
    else pending.reject(errorOf(message.error));
    if (this.#calls.size === 0 && !this.closed) this.#worker.unref();
  }

  /** A thread that ends before close() fails what it was sent, and the client refuses what comes. */
  #threadEnded(failure: Error | undefined): void {
    const unexpected = new LibsqlError(
      `The database thread ended unexpectedly${failure ? `: ${failure.message}` : ''}`,
      'CLIENT_CLOSED',
    );
    this.#refusal ??= () => unexpected;
    const reason = failure ? unexpected : this.#refusal();
    for (const pending of this.#calls.values()) pending.reject(reason);
    this.#calls.clear();
  }
}

type TransactionCall = <T>(method: DbMethod, args: unknown[], transaction: ThreadedTransaction) => Promise<T>;

/** A transaction on the thread's own connection for it, as libSQL's `transaction()` hands out. */
class ThreadedTransaction implements Transaction {
  /** As the thread last reported it: SQLite ends a transaction on its own after some failures. */
  closed = false;

  constructor(private readonly call: TransactionCall) {}

  execute(stmt: InStatement): Promise<ResultSet> {
    return this.call<WireResultSet>('execute', [stmt], this).then(resultSetOf);
  }

  batch(stmts: InStatement[]): Promise<ResultSet[]> {
    return this.call<WireResultSet[]>('batch', [stmts], this).then((sets) => sets.map(resultSetOf));
  }

  executeMultiple(sql: string): Promise<void> {
    return this.call('executeMultiple', [sql], this);
  }

  commit(): Promise<void> {
    return this.call('commit', [], this);
  }

  rollback(): Promise<void> {
    return this.call('rollback', [], this);
  }

  /**
   * Rolls back what is not committed. libSQL's close returns nothing and its rollback cannot be
   * awaited here either: it runs before anything sent later, and a failed one leaves nothing to do.
   */
  close(): void {
    this.closed = true;
    this.call('close', [], this).catch(() => undefined);
  }
}
