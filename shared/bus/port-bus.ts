/**
 * The bus across a thread boundary (`make run`: the api on the main thread, the daemon on a worker
 * thread of its own). One side owns a real bus (the in-process one) and serves it over a MessagePort
 * (`serveBusOverPort`); the other side gets a `PortBus`, a Bus whose every call becomes a message on
 * the port. Both pass the same contract suite as the in-process and NATS buses.
 *
 * - Subscriptions and responders are registered with the serving side's bus, so delivery, subject
 *   matching and "no responders" are decided there, exactly as for anyone else on that bus. A request
 *   that crosses the port while its responder unsubscribes fails as `no-responders` too.
 * - Payloads cross as JSON text, as over NATS: the same isolation, and the same shapes (a Date
 *   arrives as a string, an undefined field is dropped) on either side of the boundary.
 * - A port is ordered, so `flush()` (a round trip) resolves once every subscription made before it
 *   is registered on the serving side.
 * - When either side goes away (close, or a thread that ends), the port closes: pending requests on
 *   both sides fail as `unavailable`, and the serving side drops the other side's responders, so a
 *   later request for a bot whose daemon thread is gone fails fast with `no-responders`.
 */
import type { MessagePort } from 'node:worker_threads';
import {
  type Bus,
  BusError,
  type BusFailure,
  DEFAULT_REQUEST_TIMEOUT_MS,
  type EventHandler,
  type RequestHandler,
  type RequestOptions,
  type Subscription,
} from './bus';

/** PortBus → serving side. `id` names a subscription or responder; `call` a request awaiting its reply. */
type ToHub =
  | { t: 'subscribe'; id: number; pattern: string }
  | { t: 'respond'; id: number; subject: string }
  | { t: 'unsubscribe'; id: number }
  | { t: 'publish'; subject: string; json: string }
  | { t: 'request'; call: number; subject: string; json: string; timeoutMs: number }
  | { t: 'answer'; call: number; ok: true; json: string }
  | { t: 'answer'; call: number; ok: false; message: string; gone?: true }
  | { t: 'flush'; call: number }
  | { t: 'close' };

/** Serving side → PortBus. */
type FromHub =
  | { t: 'event'; id: number; subject: string; json: string }
  | { t: 'handle'; id: number; call: number; subject: string; json: string }
  | { t: 'reply'; call: number; ok: true; json: string }
  | { t: 'reply'; call: number; ok: false; failure: BusFailure; message: string }
  | { t: 'flushed'; call: number };

const toJson = (data: unknown) => JSON.stringify(data ?? null);
const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

export interface PortBusServer {
  /** Drops everything the other side registered and closes the port. */
  close(): void;
}

/** Serves `bus` to the PortBus at the other end of `port`. The bus stays the caller's. */
export function serveBusOverPort(bus: Bus, port: MessagePort): PortBusServer {
  const registered = new Map<number, Subscription>();
  /** Requests the other side's handlers are answering: settled by `answer`, failed when the port closes. */
  const handling = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  let nextCall = 1;
  let open = true;
  const post = (message: FromHub) => {
    if (open) port.postMessage(message);
  };

  const gone = () => new BusError('unavailable', 'the responder on the other side of the port has gone away');
  const respondFor = (id: number): RequestHandler => {
    return (data, subject) =>
      new Promise((resolve, reject) => {
        if (!open) return reject(gone());
        const call = nextCall++;
        handling.set(call, { resolve, reject });
        post({ t: 'handle', id, call, subject, json: toJson(data) });
      });
  };

  const shutDown = () => {
    if (!open) return;
    open = false;
    for (const subscription of registered.values()) subscription.unsubscribe();
    registered.clear();
    for (const { reject } of handling.values()) reject(gone());
    handling.clear();
    port.close();
  };

  const onMessage = (message: ToHub) => {
    switch (message.t) {
      case 'subscribe':
        registered.set(
          message.id,
          bus.subscribe(message.pattern, (data, subject) =>
            post({ t: 'event', id: message.id, subject, json: toJson(data) }),
          ),
        );
        return;
      case 'respond':
        registered.set(message.id, bus.respond(message.subject, respondFor(message.id)));
        return;
      case 'unsubscribe':
        registered.get(message.id)?.unsubscribe();
        registered.delete(message.id);
        return;
      case 'publish':
        bus.publish(message.subject, JSON.parse(message.json));
        return;
      case 'request':
        bus.request(message.subject, JSON.parse(message.json), { timeoutMs: message.timeoutMs }).then(
          (value) => post({ t: 'reply', call: message.call, ok: true, json: toJson(value) }),
          (error: unknown) =>
            post({
              t: 'reply',
              call: message.call,
              ok: false,
              failure: error instanceof BusError ? error.failure : 'unavailable',
              message: errorText(error),
            }),
        );
        return;
      case 'answer': {
        const pending = handling.get(message.call);
        handling.delete(message.call);
        if (message.ok) pending?.resolve(JSON.parse(message.json));
        else if (message.gone) pending?.reject(new BusError('no-responders', message.message));
        else pending?.reject(new Error(message.message));
        return;
      }
      case 'flush':
        bus.flush().then(
          () => post({ t: 'flushed', call: message.call }),
          () => post({ t: 'flushed', call: message.call }),
        );
        return;
      case 'close':
        shutDown();
        return;
    }
  };

  port.on('message', onMessage);
  port.once('close', shutDown);
  return { close: shutDown };
}

interface PendingCall {
  resolve: (value: unknown) => void;
  reject: (error: BusError) => void;
  timer?: NodeJS.Timeout;
}

/** The bus on the far side of a MessagePort served by `serveBusOverPort`. */
export class PortBus implements Bus {
  private readonly listeners = new Map<number, EventHandler>();
  private readonly responders = new Map<number, RequestHandler>();
  private readonly calls = new Map<number, PendingCall>();
  private nextId = 1;
  private closed = false;

  constructor(
    private readonly port: MessagePort,
    private readonly defaultTimeoutMs = DEFAULT_REQUEST_TIMEOUT_MS,
  ) {
    port.on('message', (message: FromHub) => this.onMessage(message));
    port.once('close', () => this.shutDown());
  }

  get available(): boolean {
    return !this.closed;
  }

  request(subject: string, data: unknown, options: RequestOptions = {}): Promise<unknown> {
    if (this.closed) return Promise.reject(new BusError('unavailable', 'message bus is closed'));
    const timeoutMs = options.timeoutMs ?? this.defaultTimeoutMs;
    const json = toJson(data);
    return new Promise((resolve, reject) => {
      const call = this.nextId++;
      // The serving side times the request out; this timer only guards against a side that hangs.
      const timer = setTimeout(() => {
        this.calls.delete(call);
        reject(new BusError('timeout', `request to ${subject} timed out after ${timeoutMs} ms`));
      }, timeoutMs + 1000);
      this.calls.set(call, { resolve, reject, timer });
      this.post({ t: 'request', call, subject, json, timeoutMs });
    });
  }

  publish(subject: string, data: unknown): void {
    if (!this.closed) this.post({ t: 'publish', subject, json: toJson(data) });
  }

  subscribe(pattern: string, handler: EventHandler): Subscription {
    const id = this.nextId++;
    this.listeners.set(id, handler);
    this.post({ t: 'subscribe', id, pattern });
    return this.subscription(id, this.listeners);
  }

  respond(subject: string, handler: RequestHandler): Subscription {
    const id = this.nextId++;
    this.responders.set(id, handler);
    this.post({ t: 'respond', id, subject });
    return this.subscription(id, this.responders);
  }

  flush(): Promise<void> {
    if (this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      const call = this.nextId++;
      this.calls.set(call, { resolve: () => resolve(), reject: () => resolve() });
      this.post({ t: 'flush', call });
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.post({ t: 'close' });
    this.shutDown();
  }

  private subscription(id: number, table: Map<number, unknown>): Subscription {
    return {
      unsubscribe: () => {
        if (table.delete(id)) this.post({ t: 'unsubscribe', id });
      },
    };
  }

  private post(message: ToHub): void {
    if (!this.closed) this.port.postMessage(message);
  }

  private onMessage(message: FromHub): void {
    switch (message.t) {
      case 'event': {
        const handler = this.listeners.get(message.id);
        if (handler) handler(JSON.parse(message.json), message.subject);
        return;
      }
      case 'handle':
        void this.answer(message);
        return;
      case 'reply': {
        const pending = this.settle(message.call);
        if (!pending) return;
        if (message.ok) pending.resolve(JSON.parse(message.json));
        else pending.reject(new BusError(message.failure, message.message));
        return;
      }
      case 'flushed':
        this.settle(message.call)?.resolve(undefined);
        return;
    }
  }

  private async answer(message: Extract<FromHub, { t: 'handle' }>): Promise<void> {
    const handler = this.responders.get(message.id);
    if (!handler) {
      // Unsubscribed here while the request was crossing: for the requester nobody responds, exactly
      // as if the serving side had already heard of the unsubscribe (never "the responder failed").
      const text = `no responder for ${message.subject} any more`;
      this.post({ t: 'answer', call: message.call, ok: false, message: text, gone: true });
      return;
    }
    try {
      const value = await handler(JSON.parse(message.json), message.subject);
      this.post({ t: 'answer', call: message.call, ok: true, json: toJson(value) });
    } catch (error) {
      this.post({ t: 'answer', call: message.call, ok: false, message: errorText(error) });
    }
  }

  private settle(call: number): PendingCall | undefined {
    const pending = this.calls.get(call);
    this.calls.delete(call);
    clearTimeout(pending?.timer);
    return pending;
  }

  private shutDown(): void {
    if (this.closed) return;
    this.closed = true;
    this.listeners.clear();
    this.responders.clear();
    const failure = new BusError('unavailable', 'message bus is closed');
    for (const pending of this.calls.values()) {
      clearTimeout(pending.timer);
      pending.reject(failure);
    }
    this.calls.clear();
    this.port.close();
  }
}
