/**
 * The message bus between the stateless api and the daemon(s): request/reply with a deadline,
 * publish, and subscribe with NATS wildcards (`*` one token, `>` the rest). Three implementations
 * (in-process, NATS, and a MessagePort to a bus on another thread) pass one contract suite
 * (tests/bus/bus.case.ts).
 *
 * Payloads are JSON values. Each end parses them with the zod schemas in `messages.ts`: the bus
 * itself does not know their shapes.
 */

/** Why a request got no answer. The api turns each into its own 503 text. */
export type BusFailure =
  /** Nobody subscribes to the subject: no daemon owns that bot. */
  | 'no-responders'
  /** A responder exists but did not answer before the deadline. */
  | 'timeout'
  /** The bus connection is down or closed. */
  | 'unavailable'
  /** The responder threw; its message travels back. */
  | 'handler-failed';

export class BusError extends Error {
  constructor(
    readonly failure: BusFailure,
    message: string,
  ) {
    super(message);
    this.name = 'BusError';
  }
}

export type RequestHandler = (data: unknown, subject: string) => unknown | Promise<unknown>;
export type EventHandler = (data: unknown, subject: string) => void;

export interface Subscription {
  unsubscribe(): void;
}

export interface RequestOptions {
  timeoutMs?: number;
}

export interface Bus {
  /** False while the connection is down or closed: requests fail as `unavailable`, events are missed. */
  readonly available: boolean;
  /** Sends a request and resolves with the first reply; rejects with a BusError, never hangs. */
  request(subject: string, data: unknown, options?: RequestOptions): Promise<unknown>;
  /** Fire-and-forget; delivered to every matching subscriber. */
  publish(subject: string, data: unknown): void;
  subscribe(pattern: string, handler: EventHandler): Subscription;
  /**
   * Answers requests on `subject`. Deliberately no queue group: if two daemons ever claimed one bot,
   * both would answer and the double ownership would show instead of hiding.
   */
  respond(subject: string, handler: RequestHandler): Subscription;
  /** Resolves once subscriptions made so far are active end to end. */
  flush(): Promise<void>;
  close(): Promise<void>;
}

export const DEFAULT_REQUEST_TIMEOUT_MS = 4000;
