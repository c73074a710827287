/**
 * Time as the lease keeper sees it: a monotonic "now" and a repeating timer. The keeper takes one as
 * a dependency so the lease test can move time by hand and check renewal, expiry and hand-over to the
 * millisecond, while the daemon runs on the system clock.
 */
import { performance } from 'node:perf_hooks';

export interface Clock {
  /** Milliseconds on a monotonic scale (never set back by NTP or the operator). */
  now(): number;
  /** Calls `tick` every `intervalMs` until the returned function is called. */
  every(intervalMs: number, tick: () => void): () => void;
}

export const systemClock: Clock = {
  now: () => performance.now(),
  every(intervalMs, tick) {
    const timer = setInterval(tick, intervalMs);
    // The bus connection keeps a daemon alive; this timer alone must not keep a finished test running.
    timer.unref();
    return () => clearInterval(timer);
  },
};
