/**
 * How late one client's voice packets reach the server, from their arrival times alone. A bot sends
 * one packet per 20 ms tick of a drift-free clock and numbers them (the voice id), so packet k is due
 * at `start + 20 ms · k`: its transit `arrival − 20 ms · k` is constant for a perfect stream, and a
 * packet's lateness is its transit minus the smallest transit of its run. A run ends at an end-of-voice
 * packet or at an arrival gap longer than a clock stall the sender could still catch up on (its clock
 * re-anchors after 3 missed ticks, and a seek or a pause stops the numbers while time goes on).
 */
import { PCM_FORMAT } from '../../daemon/audio/pcm-format';

const FRAME_MS = PCM_FORMAT.frameMs;
/** More than three frames without a packet: the sender paused, re-buffered or re-anchored its clock. */
export const RUN_BREAK_GAP_MS = 3 * FRAME_MS;
const VOICE_ID_RANGE = 0x1_0000;

/** Lateness of each packet of one run, from voice ids (unwrapped, ascending) and arrival times. */
export function runLateness(voiceIds: readonly number[], arrivalsMs: readonly number[]): number[] {
  const transits = voiceIds.map((id, i) => arrivalsMs[i]! - id * FRAME_MS);
  const baseline = transits.reduce((min, transit) => Math.min(min, transit), Number.POSITIVE_INFINITY);
  return transits.map((transit) => transit - baseline);
}

/** One client's stream within the current window. */
export class ArrivalLateness {
  private runs: { ids: number[]; arrivals: number[] }[] = [];
  private current: { ids: number[]; arrivals: number[] } | undefined;
  private lastRawId: number | undefined;
  private idOffset = 0;

  /** An audio packet (not an end-of-voice marker). */
  onAudio(voiceId: number, arrivedAtMs: number): void {
    const id = this.unwrap(voiceId);
    const run = this.current;
    const lastArrival = run?.arrivals.at(-1);
    const lastId = run?.ids.at(-1);
    if (
      !run ||
      lastArrival === undefined ||
      lastId === undefined ||
      id <= lastId ||
      arrivedAtMs - lastArrival > RUN_BREAK_GAP_MS
    ) {
      this.current = { ids: [id], arrivals: [arrivedAtMs] };
      this.runs.push(this.current);
      return;
    }
    run.ids.push(id);
    run.arrivals.push(arrivedAtMs);
  }

  onEnd(voiceId: number): void {
    this.unwrap(voiceId);
    this.current = undefined;
  }

  /** The lateness of every packet since the last `take`; the next window starts new runs. */
  take(): number[] {
    const lateness = this.runs.flatMap((run) => runLateness(run.ids, run.arrivals));
    this.runs = [];
    this.current = undefined;
    return lateness;
  }

  /** Drops the arrivals so far, unsummarized; the voice ids keep unwrapping where they were. */
  clear(): void {
    this.runs = [];
    this.current = undefined;
  }

  /** Voice ids are 16 bits and wrap every 22 minutes of audio. */
  private unwrap(voiceId: number): number {
    if (this.lastRawId !== undefined && voiceId < this.lastRawId - VOICE_ID_RANGE / 2)
      this.idOffset += VOICE_ID_RANGE;
    this.lastRawId = voiceId;
    return voiceId + this.idOffset;
  }
}
