/**
 * The bus over NATS (scaled-out layout, or whenever NATS_URL is set). The client reconnects on its
 * own; while it is disconnected, requests fail at once as `unavailable` and requests already waiting
 * are rejected, so the api answers 503 instead of hanging until the deadline.
 *
 * Requests keep their own reply inbox rather than using the client's `request()`: that one builds
 * two or three Error objects (stack traces) per call even when the reply arrives, which was a tenth of
 * the api's CPU on a bot status call. Here a request costs one publish, one timer and a map entry.
 */
import {
  connect,
  createInbox,
  Events,
  headers,
  JSONCodec,
  type Msg,
  type NatsConnection,
  type NatsError,
} from 'nats';
import { logger } from '../logger';
import {
  type Bus,
  BusError,
  DEFAULT_REQUEST_TIMEOUT_MS,
  type EventHandler,
  type RequestHandler,
  type RequestOptions,
  type Subscription,
} from './bus';

const log = logger('bus');
const codec = JSONCodec<unknown>();
/** Header that marks a reply as "the handler threw"; the body is then the error text. */
const HANDLER_ERROR_HEADER = 'Bus-Handler-Error';

export interface NatsBusOptions {
  url: string;
  name?: string;
  defaultTimeoutMs?: number;
}

/** A request waiting for its reply, under its token in the reply inbox. */
interface Waiting {
  subject: string;
  timer: NodeJS.Timeout;
  resolve(reply: unknown): void;
  reject(error: BusError): void;
}

export class NatsBus implements Bus {
  private connected = true;
  /** Every reply arrives on one wildcard subscription, `<inbox><token>`. */
  private readonly replyInbox = `${createInbox()}.`;
  private lastToken = 0;
  private readonly waiting = new Map<string, Waiting>();

  private constructor(
    private readonly nc: NatsConnection,
    private readonly defaultTimeoutMs: number,
  ) {
    nc.subscribe(`${this.replyInbox}*`, { callback: (_error, msg) => this.settle(msg) });
    void this.watchStatus();
  }

  static async connect({
    url,
    name,
    defaultTimeoutMs = DEFAULT_REQUEST_TIMEOUT_MS,
  }: NatsBusOptions): Promise<NatsBus> {
    const nc = await connect({
      servers: url,
      name: name ?? 'ts3-music-bot',
      reconnect: true,
      maxReconnectAttempts: -1,
      reconnectTimeWait: 500,
      pingInterval: 10_000,
      // The stack of every request the client makes for us (JetStream's) is not worth its cost.
      noAsyncTraces: true,
    });
    log.info({ server: nc.getServer() }, 'connected to NATS');
    return new NatsBus(nc, defaultTimeoutMs);
  }

  /**
   * The connection itself, for the daemons' lease store (JetStream): leases ride on the same connection
   * as the command subscriptions they guard, so a daemon cut off from NATS loses both together.
   */
  get connection(): NatsConnection {
    return this.nc;
  }

  get available(): boolean {
    return this.connected && !this.nc.isClosed();
  }

  request(subject: string, data: unknown, options: RequestOptions = {}): Promise<unknown> {
    if (!this.available) return Promise.reject(new BusError('unavailable', 'message bus is unavailable'));
    const timeoutMs = options.timeoutMs ?? this.defaultTimeoutMs;
    const token = (++this.lastToken).toString(36);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(token);
        reject(new BusError('timeout', `request to ${subject} timed out after ${timeoutMs} ms`));
      }, timeoutMs);
      this.waiting.set(token, { subject, timer, resolve, reject });
      try {
        this.nc.publish(subject, codec.encode(data ?? null), { reply: this.replyInbox + token });
      } catch (error) {
        this.forget(token);
        reject(publishFailure(error));
      }
    });
  }

  publish(subject: string, data: unknown): void {
    if (this.nc.isClosed()) return;
    this.nc.publish(subject, codec.encode(data ?? null));
  }

  subscribe(pattern: string, handler: EventHandler): Subscription {
    const sub = this.nc.subscribe(pattern, {
      callback: (error, msg) => {
        if (error) return log.warn({ err: error, pattern }, 'subscription error');
        let data: unknown;
        try {
          data = codec.decode(msg.data);
        } catch {
          return log.warn({ subject: msg.subject }, 'dropped a message that is not JSON');
        }
        handler(data, msg.subject);
      },
    });
    return { unsubscribe: () => sub.unsubscribe() };
  }

  respond(subject: string, handler: RequestHandler): Subscription {
    const sub = this.nc.subscribe(subject, {
      callback: (error, msg) => {
        if (error) return log.warn({ err: error, subject }, 'responder subscription error');
        void this.answer(msg, handler);
      },
    });
    return { unsubscribe: () => sub.unsubscribe() };
  }

  flush(): Promise<void> {
    return this.nc.flush();
  }

  /**
   * Drains: what was published goes out and handlers still running answer first. A connection that is
   * down is closed instead, since a drain would wait for the server to come back.
   */
  async close(): Promise<void> {
    if (this.nc.isClosed()) return;
    if (this.connected) await this.nc.drain().catch(() => this.nc.close());
    else await this.nc.close();
    this.failWaiting(new BusError('unavailable', 'message bus is closed'));
  }

  /** A reply (or the server's "no responders" status) ends the request waiting under its token. */
  private settle(msg: Msg): void {
    const token = msg.subject.slice(this.replyInbox.length);
    const waiting = this.forget(token);
    if (!waiting) return; // a second responder's reply, or one that came after the deadline
    // The server answers a request nobody is subscribed to with an empty 503 status message.
    if (msg.data.length === 0 && msg.headers?.code === 503) {
      waiting.reject(new BusError('no-responders', `no responders for ${waiting.subject}`));
      return;
    }
    try {
      waiting.resolve(decodeReply(msg));
    } catch (error) {
      waiting.reject(
        error instanceof BusError
          ? error
          : new BusError('handler-failed', `reply that is not JSON: ${error}`),
      );
    }
  }

  private failWaiting(failure: BusError): void {
    for (const token of [...this.waiting.keys()]) this.forget(token)?.reject(failure);
  }

  private forget(token: string): Waiting | undefined {
    const waiting = this.waiting.get(token);
    if (!waiting) return undefined;
    clearTimeout(waiting.timer);
    this.waiting.delete(token);
    return waiting;
  }

  private async answer(msg: Msg, handler: RequestHandler): Promise<void> {
    if (!msg.reply) return;
    try {
      const data = msg.data.length ? codec.decode(msg.data) : null;
      msg.respond(codec.encode((await handler(data, msg.subject)) ?? null));
    } catch (error) {
      const h = headers();
      h.set(HANDLER_ERROR_HEADER, '1');
      const text = error instanceof Error ? error.message : String(error);
      msg.respond(codec.encode(text), { headers: h });
    }
  }

  private async watchStatus(): Promise<void> {
    for await (const status of this.nc.status()) {
      if (status.type === Events.Disconnect) {
        this.connected = false;
        log.warn('disconnected from NATS; requests fail as unavailable until it reconnects');
        this.failWaiting(new BusError('unavailable', 'message bus connection lost'));
      } else if (status.type === Events.Reconnect) {
        this.connected = true;
        log.info('reconnected to NATS');
      }
    }
  }
}

function decodeReply(reply: Msg): unknown {
  const body = reply.data.length ? codec.decode(reply.data) : null;
  if (reply.headers?.get(HANDLER_ERROR_HEADER)) throw new BusError('handler-failed', String(body));
  return body;
}

/** Publishing throws only when the connection is closed or draining. */
function publishFailure(error: unknown): BusError {
  const code = (error as Partial<NatsError>).code;
  return new BusError('unavailable', `message bus is unavailable (${code ?? String(error)})`);
}
