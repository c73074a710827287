/**
 * The bus over NATS (scaled-out layout, or whenever NATS_URL is set). The client reconnects on its
 * own; while it is disconnected, requests fail at once as `unavailable` and requests already waiting
 * are rejected, so the api answers 503 instead of hanging until the deadline.
 */
import {
  connect,
  ErrorCode,
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

export class NatsBus implements Bus {
  private connected = true;
  private readonly pending = new Set<(error: BusError) => void>();

  private constructor(
    private readonly nc: NatsConnection,
    private readonly defaultTimeoutMs: number,
  ) {
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

  async request(subject: string, data: unknown, options: RequestOptions = {}): Promise<unknown> {
    if (!this.available) throw new BusError('unavailable', 'message bus is unavailable');
    const timeout = options.timeoutMs ?? this.defaultTimeoutMs;
    let cancel: ((error: BusError) => void) | undefined;
    const cancelled = new Promise<never>((_, reject) => {
      cancel = reject;
      this.pending.add(reject);
    });
    // The race below may never subscribe (nc.request can throw synchronously); keep that rejection handled.
    cancelled.catch(() => {});
    try {
      const reply = await Promise.race([
        this.nc.request(subject, codec.encode(data ?? null), { timeout }),
        cancelled,
      ]);
      return decodeReply(reply);
    } catch (error) {
      throw toBusError(error, subject, timeout);
    } finally {
      if (cancel) this.pending.delete(cancel);
    }
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
        const failure = new BusError('unavailable', 'message bus connection lost');
        for (const reject of this.pending) reject(failure);
        this.pending.clear();
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

function toBusError(error: unknown, subject: string, timeoutMs: number): BusError {
  if (error instanceof BusError) return error;
  const code = (error as Partial<NatsError>).code;
  if (code === ErrorCode.NoResponders) return new BusError('no-responders', `no responders for ${subject}`);
  if (code === ErrorCode.Timeout)
    return new BusError('timeout', `request to ${subject} timed out after ${timeoutMs} ms`);
  return new BusError('unavailable', `message bus is unavailable (${code ?? String(error)})`);
}
