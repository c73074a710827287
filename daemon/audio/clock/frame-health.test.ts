import { describe, expect, it } from 'vitest';
import { FrameHealth } from './frame-health';

describe('FrameHealth', () => {
  it('counts sent, late (over 10 ms) and missed frames', () => {
    const health = new FrameHealth(() => 0);
    health.recordSent(0);
    health.recordSent(10);
    health.recordSent(10.5);
    health.recordMissed(2);
    expect(health.snapshot()).toEqual({
      total: { sent: 3, late: 1, missed: 2 },
      lastMinute: { sent: 0, late: 0, missed: 0 },
      expectedPerMinute: 3000,
    });
  });

  it('reports the last whole minute, and an empty one after a gap', () => {
    let nowMs = 0;
    const health = new FrameHealth(() => nowMs);
    health.recordSent(0);
    health.recordMissed();
    nowMs = 61_000;
    health.recordSent(50);
    expect(health.snapshot().lastMinute).toEqual({ sent: 1, late: 0, missed: 1 });
    nowMs = 200_000;
    expect(health.snapshot().lastMinute).toEqual({ sent: 0, late: 0, missed: 0 });
    expect(health.snapshot().total).toEqual({ sent: 2, late: 1, missed: 1 });
  });
});
