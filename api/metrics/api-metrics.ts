/**
 * An api app's metrics, in a registry of its own: its HTTP requests by route pattern, method and status
 * with their durations, its bus requests to the daemons by op and outcome with theirs, and its live
 * WebSocket clients and listen-along listeners (read when scraped). Each api process serves its own.
 */
import { Gauge, Histogram, Registry } from 'prom-client';
import type { BotOp } from '../../shared/bus/bot-ops';
import type { BusOutcome } from '../bots/bot-client';

/** From 1 ms to 10 s: a cached read takes about the first, a platform search with retries the last. */
const SECONDS_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

/** The live counts read at each scrape. */
export interface LiveCounts {
  websocketClients(): number;
  listeners(): number;
}

export class ApiMetrics {
  readonly registry = new Registry();
  private readonly requests: Histogram<'method' | 'route' | 'status'>;
  private readonly busRequests: Histogram<'op' | 'outcome'>;
  private live: LiveCounts = { websocketClients: () => 0, listeners: () => 0 };

  constructor() {
    const registers = [this.registry];
    this.requests = new Histogram({
      name: 'ts3bot_http_request_duration_seconds',
      help: 'HTTP requests by method, route pattern and status, and how long they took to answer',
      labelNames: ['method', 'route', 'status'] as const,
      buckets: SECONDS_BUCKETS,
      registers,
    });
    this.busRequests = new Histogram({
      name: 'ts3bot_bus_request_duration_seconds',
      help: 'Requests to the daemons over the bus by op and outcome, and how long their answer took',
      labelNames: ['op', 'outcome'] as const,
      buckets: SECONDS_BUCKETS,
      registers,
    });
    const liveGauge = (name: string, help: string, read: () => number) =>
      new Gauge({
        name,
        help,
        registers,
        collect() {
          this.set(read());
        },
      });
    liveGauge('ts3bot_websocket_clients', 'Sockets connected to /ws on this api', () =>
      this.live.websocketClients(),
    );
    liveGauge('ts3bot_listen_along_listeners', 'Listen-along streams open on this api', () =>
      this.live.listeners(),
    );
  }

  /** Where the live counts come from, once the app has its gateway and listen hub. */
  count(live: LiveCounts): void {
    this.live = live;
  }

  request(method: string, route: string, status: number, seconds: number): void {
    this.requests.observe({ method, route, status }, seconds);
  }

  readonly busRequest = (op: BotOp, outcome: BusOutcome, seconds: number): void => {
    this.busRequests.observe({ op, outcome }, seconds);
  };
}
