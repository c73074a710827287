/**
 * Request/reply between the runtime bench and its child processes (the counting TS3 server, the bot
 * process) over Node's IPC channel. An operation table names each op's argument and reply schemas,
 * as the bus's operation table does for bot commands; both ends parse what they receive with it. Every
 * table has `shutdown`, after whose reply the child exits.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { z } from 'zod';

export interface RpcOp<Args extends z.ZodType = z.ZodType, Reply extends z.ZodType = z.ZodType> {
  args: Args;
  reply: Reply;
}
export type RpcTable = Record<string, RpcOp> & { shutdown: RpcOp };
export type RpcArgs<T extends RpcTable, Op extends keyof T> = z.infer<T[Op]['args']>;
export type RpcReply<T extends RpcTable, Op extends keyof T> = z.infer<T[Op]['reply']>;
export type RpcHandlers<T extends RpcTable> = {
  [Op in keyof T]: (args: RpcArgs<T, Op>) => Promise<RpcReply<T, Op>> | RpcReply<T, Op>;
};

export const SHUTDOWN_OP = { args: z.object({}), reply: z.object({}) } satisfies RpcOp;

const RequestSchema = z.object({ id: z.number(), op: z.string(), args: z.unknown() });
const ReplySchema = z.union([
  z.object({ id: z.number(), ok: z.literal(true), value: z.unknown() }),
  z.object({ id: z.number(), ok: z.literal(false), error: z.string() }),
]);

/** In the child: answers the parent's requests with the handlers; exits after `shutdown`. */
export function serveRpc<T extends RpcTable>(table: T, handlers: RpcHandlers<T>): void {
  const send = process.send?.bind(process);
  if (!send) throw new Error('serveRpc needs an IPC channel: start this file with RpcChild.start');
  process.on('message', async (raw) => {
    const request = RequestSchema.safeParse(raw);
    if (!request.success) return;
    const { id, op } = request.data;
    const spec = table[op];
    // The table and the handlers share their keys; the schemas check what crosses at run time.
    const handler = handlers[op as keyof T] as ((args: unknown) => unknown) | undefined;
    if (!spec || !handler) {
      send({ id, ok: false, error: `unknown op ${op}` });
      return;
    }
    try {
      const value = spec.reply.parse(await handler(spec.args.parse(request.data.args)));
      send({ id, ok: true, value }, () => {
        if (op === 'shutdown') process.exit(0);
      });
    } catch (error) {
      send({ id, ok: false, error: error instanceof Error ? error.message : String(error) });
    }
  });
  // A parent that died must not leave bots streaming.
  process.on('disconnect', () => process.exit(1));
}

/** In the parent: one child process running `entry` (a TypeScript file, through tsx). */
export class RpcChild<T extends RpcTable> {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  private exited: Promise<void>;

  private constructor(
    private readonly child: ChildProcess,
    private readonly table: T,
    readonly label: string,
  ) {
    child.on('message', (raw) => this.onReply(raw));
    this.exited = new Promise((resolve) =>
      child.once('exit', (code, signal) => {
        for (const { reject } of this.pending.values())
          reject(new Error(`${label} exited (${signal ?? code}) before answering`));
        this.pending.clear();
        resolve();
      }),
    );
  }

  static start<T extends RpcTable>(
    entry: string,
    table: T,
    options: { label: string; env?: Record<string, string> },
  ): RpcChild<T> {
    const child = fork(entry, [], {
      execArgv: ['--import', 'tsx'],
      env: { ...process.env, ...options.env },
      // Structured clone rather than JSON: a summary of an empty window carries NaN.
      serialization: 'advanced',
    });
    return new RpcChild(child, table, options.label);
  }

  get pid(): number {
    if (this.child.pid === undefined) throw new Error(`${this.label} did not start`);
    return this.child.pid;
  }

  call<Op extends keyof T & string>(op: Op, args: RpcArgs<T, Op>): Promise<RpcReply<T, Op>> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, {
        resolve: (value) => resolve(this.table[op]!.reply.parse(value) as RpcReply<T, Op>),
        reject,
      });
      this.child.send({ id, op, args }, (error) => {
        if (!error) return;
        this.pending.delete(id);
        reject(error);
      });
    });
  }

  /** Asks the child to shut down and waits until it has; kills it if it does not within `graceMs`. */
  async stop(graceMs = 15_000): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const timer = setTimeout(() => this.child.kill('SIGKILL'), graceMs);
    await this.call('shutdown', {} as RpcArgs<T, 'shutdown'>).catch(() => undefined);
    await this.exited;
    clearTimeout(timer);
  }

  private onReply(raw: unknown): void {
    const reply = ReplySchema.safeParse(raw);
    if (!reply.success) return;
    const waiter = this.pending.get(reply.data.id);
    if (!waiter) return;
    this.pending.delete(reply.data.id);
    if (reply.data.ok) waiter.resolve(reply.data.value);
    else waiter.reject(new Error(`${this.label}: ${reply.data.error}`));
  }
}
