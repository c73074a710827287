/**
 * Lateness of voice frames over one measurement window: every frame's lateness is kept (a window of 150
 * bots is under 100 000 numbers), so the percentiles are exact rather than read off a histogram.
 */
import { percentile } from './percentiles';

/** A frame more than this late counts as late (the goal: under 0.1 % of frames). */
export const LATE_THRESHOLD_MS = 10;

export interface LatenessSummary {
  frames: number;
  late: number;
  /** `late` as a percentage of `frames`; NaN without frames, so an empty window never reads as perfect. */
  latePercent: number;
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
}

export function summarizeLateness(latenessMs: ArrayLike<number>): LatenessSummary {
  const sorted = Float64Array.from(latenessMs).sort();
  let late = 0;
  for (const value of sorted) if (value > LATE_THRESHOLD_MS) late++;
  return {
    frames: sorted.length,
    late,
    latePercent: sorted.length === 0 ? Number.NaN : (late / sorted.length) * 100,
    p50Ms: percentile(sorted, 0.5),
    p99Ms: percentile(sorted, 0.99),
    maxMs: sorted.length === 0 ? Number.NaN : sorted[sorted.length - 1]!,
  };
}

/** Collects lateness values as they happen; `take()` summarizes the window and starts the next. */
export class LatenessLog {
  private values: number[] = [];

  record(latenessMs: number): void {
    this.values.push(latenessMs);
  }

  take(): LatenessSummary {
    const summary = summarizeLateness(this.values);
    this.values = [];
    return summary;
  }

  /** Drops what was logged, unsummarized: a window starts. */
  clear(): void {
    this.values = [];
  }
}
