import { describe, expect, it } from 'vitest';
import { SpawnFailureTracker } from './spawn-failure-tracker';

describe('SpawnFailureTracker', () => {
  it('asks to stop on the third failure in a row', () => {
    const tracker = new SpawnFailureTracker();
    expect(tracker.recordFailure()).toBe(false);
    expect(tracker.recordFailure()).toBe(false);
    expect(tracker.recordFailure()).toBe(true);
    expect(tracker.limitReached).toBe(true);
  });

  it('starts counting again after a successful spawn', () => {
    const tracker = new SpawnFailureTracker();
    tracker.recordFailure();
    tracker.recordFailure();
    tracker.recordSuccess();
    expect(tracker.recordFailure()).toBe(false);
    expect(tracker.limitReached).toBe(false);
  });
});
