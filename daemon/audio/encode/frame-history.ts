/**
 * The last few PCM frames an audio worker encoded for one player, as they came from the decoder
 * (before the gain), with where the gain's ramp stood before each. A gain change must not wait for the
 * lookahead of frames already encoded at the old gain: the worker takes the frames not yet due back
 * from here and encodes them again at the new one (see `WorkerSlot.changeGain`).
 */

import { SAMPLES_PER_FRAME } from '../pcm-format';
import { GAIN_RAMP_NUMBERS, type Gain } from './gain';

export class FrameHistory {
  private readonly pcm: Int16Array;
  private readonly ramps: Float64Array;
  /** The sequence each entry holds; -1 for none. */
  private readonly sequences: Int32Array;

  constructor(private readonly frames: number) {
    this.pcm = new Int16Array(frames * SAMPLES_PER_FRAME);
    this.ramps = new Float64Array(frames * GAIN_RAMP_NUMBERS);
    this.sequences = new Int32Array(frames).fill(-1);
  }

  /** Keeps frame `sequence` (before the gain is applied to it) and the gain's ramp before it. */
  record(sequence: number, frame: Int16Array, gain: Gain): void {
    const entry = sequence % this.frames;
    this.sequences[entry] = sequence;
    this.pcm.set(frame, entry * SAMPLES_PER_FRAME);
    gain.saveRamp(this.ramps, entry * GAIN_RAMP_NUMBERS);
  }

  has(sequence: number): boolean {
    return sequence >= 0 && this.sequences[sequence % this.frames] === sequence;
  }

  /** Every frame from `from` up to (not including) `until` is kept. */
  keepsFrom(from: number, until: number): boolean {
    return until - from <= this.frames && this.has(from);
  }

  /** Copies frame `sequence` into `into` and returns it, or undefined once it is no longer kept. */
  recall(sequence: number, into: Int16Array): Int16Array | undefined {
    if (!this.has(sequence)) return undefined;
    const start = (sequence % this.frames) * SAMPLES_PER_FRAME;
    into.set(this.pcm.subarray(start, start + SAMPLES_PER_FRAME));
    return into;
  }

  /** Puts the gain's ramp back where it stood before frame `sequence` (kept, see `has`). */
  restoreGain(sequence: number, gain: Gain): void {
    if (this.has(sequence)) gain.restoreRamp(this.ramps, (sequence % this.frames) * GAIN_RAMP_NUMBERS);
  }

  /** A new pipeline: its sequences start again at 0. */
  clear(): void {
    this.sequences.fill(-1);
  }
}
