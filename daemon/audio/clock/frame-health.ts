/**
 * Per-player frame health, after Lavalink's AudioLossCounter: frames sent, frames sent late (more than
 * 10 ms past their deadline) and frames missed (underrun, or ticks dropped after a stall), in total
 * and for the last whole minute, against the 3000 frames a minute of 20 ms audio needs.
 */
import { PCM_FORMAT } from '../pcm-format';

export const LATE_FRAME_THRESHOLD_MS = 10;
export const EXPECTED_FRAMES_PER_MINUTE = 60_000 / PCM_FORMAT.frameMs;
const MINUTE_MS = 60_000;

export interface FrameCounts {
  sent: number;
  late: number;
  missed: number;
}

export interface FrameHealthSnapshot {
  total: FrameCounts;
  /** The last complete calendar minute; all zero until one has passed. */
  lastMinute: FrameCounts;
  expectedPerMinute: number;
}

const zero = (): FrameCounts => ({ sent: 0, late: 0, missed: 0 });

export class FrameHealth {
  private readonly total = zero();
  private current = zero();
  private lastMinute = zero();
  private currentMinute: number;

  constructor(private readonly nowMs: () => number = Date.now) {
    this.currentMinute = Math.floor(nowMs() / MINUTE_MS);
  }

  /** A frame went out `latenessMs` after its deadline. */
  recordSent(latenessMs: number): void {
    this.rollMinute();
    const late = latenessMs > LATE_FRAME_THRESHOLD_MS ? 1 : 0;
    this.total.sent++;
    this.total.late += late;
    this.current.sent++;
    this.current.late += late;
  }

  recordMissed(frameCount = 1): void {
    this.rollMinute();
    this.total.missed += frameCount;
    this.current.missed += frameCount;
  }

  snapshot(): FrameHealthSnapshot {
    this.rollMinute();
    return {
      total: { ...this.total },
      lastMinute: { ...this.lastMinute },
      expectedPerMinute: EXPECTED_FRAMES_PER_MINUTE,
    };
  }

  private rollMinute(): void {
    const minute = Math.floor(this.nowMs() / MINUTE_MS);
    if (minute === this.currentMinute) return;
    // A gap of more than one minute means the minute before this one had no frames at all.
    this.lastMinute = minute === this.currentMinute + 1 ? this.current : zero();
    this.current = zero();
    this.currentMinute = minute;
  }
}
