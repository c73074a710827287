/**
 * Matches answers to commands: a command sent with `return_code` is settled by the server's
 * `error id=… return_code=…` line, and a waiter resolves on the first notification that matches it.
 */
import { buildCommand, type Params, type ParsedCommand } from './command';
import { Ts3CommandError } from './errors';
import { commandErrorFrom } from './notifications';

type Item = Record<string, string>;

interface PendingRequest {
  command: string;
  resolve: () => void;
  reject: (e: Error) => void;
  timer: NodeJS.Timeout;
}

interface Waiter {
  name: string;
  match: (item: Item) => boolean;
  resolve: (item: Item) => void;
  reject: (e: Error) => void;
}

export class RequestTracker {
  private nextReturnCode = 1;
  private readonly requests = new Map<string, PendingRequest>();
  private readonly waiters = new Set<Waiter>();

  constructor(private readonly timeoutMs: number) {}

  /** Sends `name params return_code=N` through `send` and settles on the matching `error` line. */
  request(name: string, params: Params, send: (text: string) => void): Promise<void> {
    const returnCode = String(this.nextReturnCode++);
    return new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.requests.delete(returnCode);
        reject(new Ts3CommandError(name, -1, `no answer within ${this.timeoutMs} ms`));
      }, this.timeoutMs);
      this.requests.set(returnCode, { command: name, resolve, reject, timer });
      send(buildCommand(name, { ...params, return_code: returnCode }));
    });
  }

  /** Resolves with the first item of a `name` notification that passes `match`. */
  waitFor(name: string, match: (item: Item) => boolean, timeoutMs = this.timeoutMs): Promise<Item> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(waiter);
        reject(new Ts3CommandError(name, -1, `not received within ${timeoutMs} ms`));
      }, timeoutMs);
      const waiter: Waiter = {
        name,
        match,
        resolve: (item) => {
          clearTimeout(timer);
          resolve(item);
        },
        reject: (e) => {
          clearTimeout(timer);
          reject(e);
        },
      };
      this.waiters.add(waiter);
    });
  }

  /** Settles the request an `error` line answers; false when it answers none of ours. */
  settle(item: Item): boolean {
    const error = commandErrorFrom(item);
    const pending = this.requests.get(error.returnCode);
    if (!pending) return false;
    this.requests.delete(error.returnCode);
    clearTimeout(pending.timer);
    if (error.id === 0) pending.resolve();
    else pending.reject(new Ts3CommandError(pending.command, error.id, error.message));
    return true;
  }

  notify(command: ParsedCommand): void {
    for (const waiter of this.waiters) {
      const item = command.name === waiter.name ? command.items.find(waiter.match) : undefined;
      if (!item) continue;
      this.waiters.delete(waiter);
      waiter.resolve(item);
    }
  }

  rejectAll(reason: string): void {
    for (const pending of this.requests.values()) {
      clearTimeout(pending.timer);
      pending.reject(new Ts3CommandError(pending.command, -1, reason));
    }
    this.requests.clear();
    for (const waiter of this.waiters) waiter.reject(new Ts3CommandError(waiter.name, -1, reason));
    this.waiters.clear();
  }
}
