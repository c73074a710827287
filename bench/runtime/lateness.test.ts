import { describe, expect, it } from 'vitest';
import { LatenessLog, summarizeLateness } from './lateness';
import { p50p99, percentile } from './percentiles';

describe('percentile', () => {
  it('takes the nearest rank, never a value between two', () => {
    const sorted = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10];
    expect(percentile(sorted, 0.5)).toBe(5);
    expect(percentile(sorted, 0.99)).toBe(10);
    expect(percentile(sorted, 0)).toBe(1);
    expect(percentile([], 0.5)).toBeNaN();
  });

  it('gives p50 and p99 of unsorted values', () => {
    const values = Array.from({ length: 200 }, (_, i) => 200 - i);
    expect(p50p99(values)).toEqual({ p50: 100, p99: 198 });
  });
});

describe('summarizeLateness', () => {
  it('counts frames over 10 ms as late and gives p50, p99 and max', () => {
    const values = [...Array.from({ length: 997 }, () => 1), 10, 10.5, 40];
    expect(summarizeLateness(values)).toEqual({
      frames: 1000,
      late: 2,
      latePercent: 0.2,
      p50Ms: 1,
      p99Ms: 1,
      maxMs: 40,
    });
  });

  it('reads an empty window as unknown, not as perfect', () => {
    const summary = summarizeLateness([]);
    expect(summary.frames).toBe(0);
    expect(summary.latePercent).toBeNaN();
    expect(summary.maxMs).toBeNaN();
  });
});

describe('LatenessLog', () => {
  it('summarizes one window and starts the next empty', () => {
    const log = new LatenessLog();
    log.record(3);
    log.record(12);
    expect(log.take()).toMatchObject({ frames: 2, late: 1, maxMs: 12 });
    expect(log.take().frames).toBe(0);
  });

  it('drops what was logged when a window starts', () => {
    const log = new LatenessLog();
    log.record(40);
    log.clear();
    log.record(2);
    expect(log.take()).toMatchObject({ frames: 1, late: 0, maxMs: 2 });
  });
});
