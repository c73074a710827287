/**
 * The database thread of a ThreadedClient: it owns the real local libSQL client, opened as openDb
 * opens one (its pragmas on every connection), and runs the statements it is sent one after another,
 * in the order they came. A statement that waits for another writer's lock waits here, not on the
 * thread that sent it. On `close` it closes the client and ends.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { type Client, LibsqlError, type Transaction } from '@libsql/client';
import { type DbOptions, openLibsqlClient } from './libsql-client';
import {
  type DbOpenFailure,
  type DbReply,
  type DbRequest,
  type WireResultSet,
  wireErrorOf,
  wireResultSetOf,
} from './threaded-client-wire';

if (!parentPort) throw new Error('threaded-client-worker.ts runs only as a worker thread');
const port = parentPort;

const transactions = new Map<number, Transaction>();
let nextTransaction = 1;

type Answer = WireResultSet | WireResultSet[] | number | undefined;

/**
 * Runs a request on the client or a transaction. libSQL's local client runs a statement synchronously,
 * before its promise is returned, so they run in the order they came.
 */
async function clientRequest(client: Client, request: DbRequest): Promise<Answer> {
  const { method, args } = request;
  switch (method) {
    case 'migrate':
      return (await client.migrate(...(args as Parameters<Client['migrate']>))).map(wireResultSetOf);
    case 'transaction': {
      const number = nextTransaction++;
      transactions.set(number, await client.transaction(...(args as Parameters<Client['transaction']>)));
      return number;
    }
    case 'close':
      for (const transaction of transactions.values()) transaction.close();
      transactions.clear();
      client.close();
      return undefined;
    default:
      return statementRequest(client, request);
  }
}

async function transactionRequest(transaction: Transaction, request: DbRequest): Promise<Answer> {
  switch (request.method) {
    case 'commit':
      await transaction.commit();
      return undefined;
    case 'rollback':
      await transaction.rollback();
      return undefined;
    case 'close':
      transaction.close();
      return undefined;
    default:
      return statementRequest(transaction, request);
  }
}

/** What a client and a transaction both run. */
async function statementRequest(
  target: Pick<Client, 'execute' | 'batch' | 'executeMultiple'>,
  { method, args }: DbRequest,
): Promise<Answer> {
  switch (method) {
    case 'execute':
      return wireResultSetOf(await target.execute(...(args as Parameters<Client['execute']>)));
    case 'batch':
      return (await target.batch(...(args as Parameters<Client['batch']>))).map(wireResultSetOf);
    case 'executeMultiple':
      await target.executeMultiple(...(args as Parameters<Client['executeMultiple']>));
      return undefined;
    default:
      throw new Error(`unknown request: ${method}`);
  }
}

function serve(client: Client): void {
  port.on('message', async (request: DbRequest) => {
    const { call, transaction: number } = request;
    const transaction = number === undefined ? undefined : transactions.get(number);
    let reply: DbReply;
    try {
      if (number !== undefined && !transaction)
        throw new LibsqlError('The transaction is closed', 'TRANSACTION_CLOSED');
      const value = await (transaction
        ? transactionRequest(transaction, request)
        : clientRequest(client, request));
      reply = { call, ok: true, value };
    } catch (error) {
      reply = { call, ok: false, error: wireErrorOf(error) };
    }
    if (number !== undefined) {
      const closed = transaction?.closed ?? true;
      // An ended transaction's connection is let go, as libSQL lets go of it.
      if (closed) transactions.delete(number);
      reply.transactionClosed = closed;
    }
    port.postMessage(reply);
    if (number === undefined && request.method === 'close') port.close();
  });
}

let client: Client | undefined;
try {
  client = openLibsqlClient(workerData as DbOptions);
} catch (error) {
  port.postMessage({ openFailed: wireErrorOf(error) } satisfies DbOpenFailure);
  port.close();
}
if (client) serve(client);
