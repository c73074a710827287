/**
 * SPEC: playback stops after 3 consecutive audio-process spawn failures. A missing or broken ffmpeg
 * fails every track the same way, so skipping on through the queue would only burn through it.
 */
export const MAX_CONSECUTIVE_SPAWN_FAILURES = 3;

export class SpawnFailureTracker {
  private consecutiveFailures = 0;

  constructor(readonly limit: number = MAX_CONSECUTIVE_SPAWN_FAILURES) {}

  /** Counts one failure; returns true when the limit is reached and playback should stop. */
  recordFailure(): boolean {
    this.consecutiveFailures++;
    return this.limitReached;
  }

  recordSuccess(): void {
    this.consecutiveFailures = 0;
  }

  get limitReached(): boolean {
    return this.consecutiveFailures >= this.limit;
  }
}
