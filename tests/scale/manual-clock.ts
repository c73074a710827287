/**
 * A clock the test moves by hand: timers fire only inside `advance`, in due order, each at its own
 * time, so lease renewal, expiry and hand-over are checked to the millisecond however slow the machine.
 */
import type { Clock } from '../../daemon/ownership/clock';

interface Timer {
  intervalMs: number;
  dueAt: number;
  tick: () => void;
}

export class ManualClock implements Clock {
  private time = 0;
  private readonly timers = new Set<Timer>();

  now(): number {
    return this.time;
  }

  every(intervalMs: number, tick: () => void): () => void {
    const timer = { intervalMs, dueAt: this.time + intervalMs, tick };
    this.timers.add(timer);
    return () => this.timers.delete(timer);
  }

  /** Moves time forward by `ms`, firing every timer that falls due on the way. */
  advance(ms: number): void {
    const until = this.time + ms;
    for (;;) {
      const next = [...this.timers].sort((a, b) => a.dueAt - b.dueAt)[0];
      if (!next || next.dueAt > until) break;
      this.time = next.dueAt;
      next.dueAt += next.intervalMs;
      next.tick();
    }
    this.time = until;
  }
}
