/**
 * The bus inside one process (the single-machine default). Delivery is asynchronous, as on NATS, so
 * a handler never runs inside its caller's stack and ordering bugs show up here too.
 */
import {
  type Bus,
  BusError,
  DEFAULT_REQUEST_TIMEOUT_MS,
  type EventHandler,
  type RequestHandler,
  type RequestOptions,
  type Subscription,
} from './bus';
import { subjectMatches } from './subject-pattern';

interface Entry<H> {
  pattern: string;
  handler: H;
}

export class InProcessBus implements Bus {
  private readonly listeners = new Set<Entry<EventHandler>>();
  private readonly responders = new Set<Entry<RequestHandler>>();
  private closed = false;

  constructor(private readonly defaultTimeoutMs = DEFAULT_REQUEST_TIMEOUT_MS) {}

  get available(): boolean {
    return !this.closed;
  }

  request(subject: string, data: unknown, options: RequestOptions = {}): Promise<unknown> {
    if (this.closed) return Promise.reject(new BusError('unavailable', 'message bus is closed'));
    const targets = [...this.responders].filter((r) => subjectMatches(r.pattern, subject));
    if (targets.length === 0)
      return Promise.reject(new BusError('no-responders', `no responders for ${subject}`));
    // A copy through JSON gives the same isolation (and the same failure on non-JSON values) as NATS.
    const payload = JSON.parse(JSON.stringify(data ?? null)) as unknown;
    const timeoutMs = options.timeoutMs ?? this.defaultTimeoutMs;
    return new Promise((resolve, reject) => {
      let settled = false;
      let mayAnswer = targets.length;
      const timer = setTimeout(() => {
        settled = true;
        reject(new BusError('timeout', `request to ${subject} timed out after ${timeoutMs} ms`));
      }, timeoutMs);
      const settle = (outcome: { ok: true; value: unknown } | { ok: false; error: BusError }) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        if (outcome.ok) resolve(JSON.parse(JSON.stringify(outcome.value ?? null)));
        else reject(outcome.error);
      };
      for (const target of targets) {
        setImmediate(async () => {
          // A responder that unsubscribed before its turn does not answer (a daemon that has let a
          // bot go must not speak for it); with none left, nobody responds, as if it were gone already.
          if (!this.responders.has(target)) {
            if (--mayAnswer === 0)
              settle({ ok: false, error: new BusError('no-responders', `no responders for ${subject}`) });
            return;
          }
          try {
            settle({ ok: true, value: await target.handler(payload, subject) });
          } catch (error) {
            settle({ ok: false, error: asBusError(error) });
          }
        });
      }
    });
  }

  publish(subject: string, data: unknown): void {
    if (this.closed) return;
    const payload = JSON.stringify(data ?? null);
    for (const listener of this.listeners) {
      if (!subjectMatches(listener.pattern, subject)) continue;
      setImmediate(() => {
        if (this.listeners.has(listener)) listener.handler(JSON.parse(payload), subject);
      });
    }
  }

  subscribe(pattern: string, handler: EventHandler): Subscription {
    return this.add(this.listeners, { pattern, handler });
  }

  respond(subject: string, handler: RequestHandler): Subscription {
    return this.add(this.responders, { pattern: subject, handler });
  }

  async flush(): Promise<void> {}

  async close(): Promise<void> {
    this.closed = true;
    this.listeners.clear();
    this.responders.clear();
  }

  private add<H>(set: Set<Entry<H>>, entry: Entry<H>): Subscription {
    set.add(entry);
    return { unsubscribe: () => set.delete(entry) };
  }
}

/**
 * What a responder's exception becomes: `handler-failed` with its message, unless the responder is a
 * relay that already knows the failure (a daemon thread that went away is `unavailable`).
 */
function asBusError(error: unknown): BusError {
  if (error instanceof BusError) return error;
  return new BusError('handler-failed', error instanceof Error ? error.message : String(error));
}
