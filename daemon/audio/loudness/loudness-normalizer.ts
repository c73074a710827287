/**
 * Brings one track to the bot's loudness target, frame by frame, where decoding runs (the audio
 * worker), before the bot's volume and ducking: those stay the listener's own, on top.
 *
 * The gain comes from the track's known loudness (the platform's figure, the file's tags, an upload's
 * measurement) when it has one, else from a LoudnessMeter fed with the decoder's output, which runs
 * seconds ahead of the clock. That estimate settles in the first seconds, where the gain may move fast
 * (a ramp, never a step), and afterwards moves at most 1 dB a second, so a quiet intro followed by a
 * loud chorus is not pumped up and then slammed down.
 *
 * A gain that would push a sample over the ceiling is limited, never clipped: each frame's gain is at
 * most what keeps its own peak and the next frame's under the ceiling, and the gain ramps from one
 * frame's to the next across the frame, so every sample of it stays under both ends' limits. It comes
 * back up at 5 dB a second. The ceiling is the true-peak one less a decibel: what the listener decodes
 * is Opus, whose peaks (and those between samples) can pass the PCM's by a fraction of a decibel.
 */
import {
  type KnownLoudness,
  type LoudnessSource,
  TRUE_PEAK_CEILING_DB,
} from '../../../shared/domain/loudness';
import { BYTES_PER_SECOND, FRAME_SECONDS } from '../pcm-format';
import { LoudnessMeter } from './loudness-meter';

export interface NormalizationSpec {
  targetLufs: number;
  /** The track's own figure; without one it is measured as it decodes. */
  known?: KnownLoudness;
  /** Turned on while the track plays: its gain ramps from unity instead of starting at its level. */
  midTrack?: boolean;
}

/** The gain a track gets at most, and the cut: a near-silent track is not raised into noise. */
const MAX_BOOST_DB = 18;
const MAX_CUT_DB = -30;
const SAMPLE_CEILING = 32767 * 10 ** ((TRUE_PEAK_CEILING_DB - 1) / 20);
/**
 * An amplitude at or under this keeps every 16-bit sample under the ceiling, so a frame played at it
 * needs no peak: most songs are mastered louder than the target and only cut, and for them the
 * limiter costs nothing.
 */
const SAFE_AMPLITUDE = SAMPLE_CEILING / 32768;
/** While the estimate settles (its first seconds of audio) the gain may move this much per frame. */
const SETTLING_SECONDS = 5;
const SETTLING_DB_PER_FRAME = 0.5;
const SETTLED_DB_PER_FRAME = 1 * FRAME_SECONDS;
/** Measured audio a track waits for before its first frame, so it starts at its level (a block is 0.4 s). */
const FIRST_ESTIMATE_SECONDS = 1;
/**
 * Once the estimate has this much audio, only one second in every SAMPLED_EVERY_SECONDS is measured:
 * the integrated loudness of a song barely moves by then, and measuring is most of what
 * normalization costs a bot.
 */
const FULLY_MEASURED_SECONDS = 6;
const SAMPLED_EVERY_SECONDS = 5;
/** How fast the limiter lets go, per frame (5 dB/s). */
const RELEASE_PER_FRAME = 10 ** ((5 * FRAME_SECONDS) / 20);

const amplitudeOf = (db: number): number => 10 ** (db / 20);

export class LoudnessNormalizer {
  private readonly meter: LoudnessMeter | undefined;
  /** The normalization gain (dB) before limiting; undefined until there is a figure. */
  private gain: number | undefined;
  /** The amplitude the last frame ended at (unity for one turned on mid-track). */
  private lastAmplitude: number | undefined;
  private framesApplied = 0;
  /** Bytes the decoder has handed over so far, measured or not. */
  private decodedBytes = 0;
  /** The peak of the frame looked at ahead last time: the one `apply` gets next. */
  private nextPeak: number | undefined;
  /** Turned off mid-track: the gain goes back to unity and stays there. */
  private off = false;
  private targetLufs: number;
  /** The limiter's cut (≤ 1) the last frame ended at. */
  private lastCut = 1;

  constructor(private readonly spec: NormalizationSpec) {
    this.targetLufs = spec.targetLufs;
    if (spec.midTrack) this.lastAmplitude = 1;
    this.meter = spec.known ? undefined : new LoudnessMeter();
    if (spec.known) this.gain = clampGain(spec.targetLufs - spec.known.integratedLufs);
  }

  /**
   * A new target while the track plays (undefined: off), heard from the next frame this applies to,
   * ramped: a person comparing on and off hears it at once, not from the next song.
   */
  retarget(targetLufs: number | undefined): void {
    this.off = targetLufs === undefined;
    if (targetLufs === undefined) return;
    if (this.gain !== undefined) this.gain = clampGain(this.gain + targetLufs - this.targetLufs);
    this.targetLufs = targetLufs;
  }

  /** The normalization gain applied now (dB; the limiter's momentary cut apart), once known. */
  get gainDb(): number | undefined {
    return this.off ? undefined : this.gain;
  }

  /** Where the gain's figure comes from, once there is one. */
  get source(): LoudnessSource | undefined {
    if (this.gainDb === undefined) return undefined;
    return this.spec.known?.source ?? 'measured';
  }

  /**
   * Whether the first frame may be played: at once with a known figure; with a measured one once the
   * meter has an estimate (or has heard a second of silence), so a track does not start at the wrong
   * level and then slide to its own.
   */
  get ready(): boolean {
    return (
      !this.meter || this.meter.integrated() !== undefined || this.meter.seconds >= FIRST_ESTIMATE_SECONDS
    );
  }

  /** The decoder's output as it arrives: measured when the track has no figure of its own. */
  measure(chunk: Uint8Array): void {
    if (!this.meter) return;
    const second = Math.floor(this.decodedBytes / BYTES_PER_SECOND);
    this.decodedBytes += chunk.length;
    if (this.meter.seconds < FULLY_MEASURED_SECONDS || second % SAMPLED_EVERY_SECONDS === 0)
      this.meter.addBytes(chunk);
  }

  /**
   * Applies the gain to `frame` in place. `peekNext` gives the frame after it where already decoded;
   * it is asked only when the gain could take a sample past the ceiling.
   */
  apply(frame: Int16Array, peekNext: () => Int16Array | undefined): void {
    this.followEstimate();
    this.framesApplied++;
    // Good for this frame only when the last call looked at it ahead.
    const knownPeak = this.nextPeak;
    this.nextPeak = undefined;
    // Played as it is until the first estimate, which the gain then moves to from here; once turned
    // off, back to unity in one frame's ramp.
    if (this.gain === undefined) {
      this.lastAmplitude = 1;
      return;
    }
    if (this.off && this.lastAmplitude === 1) return;
    let end = 1;
    if (!this.off) {
      const gain = amplitudeOf(this.gain);
      this.lastCut = Math.min(1, this.lastCut * RELEASE_PER_FRAME);
      if (gain * this.lastCut > SAFE_AMPLITUDE) {
        const peak = knownPeak ?? peakOf(frame);
        const next = peekNext();
        this.nextPeak = next && peakOf(next);
        const limit = SAMPLE_CEILING / Math.max(1, peak, this.nextPeak ?? 0);
        this.lastCut = Math.min(this.lastCut, limit / gain);
      }
      end = gain * this.lastCut;
    }
    const start = this.lastAmplitude ?? end;
    this.lastAmplitude = end;
    // Both ends are under this frame's limit when the last frame looked at it ahead (its end was
    // chosen under this frame's peak too) or when they are safe for any sample; else a sample may
    // pass and is held under the ceiling.
    scale(frame, start, end, knownPeak === undefined && Math.max(start, end) > SAFE_AMPLITUDE);
  }

  /** Moves the measured gain toward what the estimate asks, fast while it settles, slowly after. */
  private followEstimate(): void {
    const estimate = this.meter?.integrated();
    if (!this.meter || estimate === undefined) return;
    const wanted = clampGain(this.targetLufs - estimate);
    if (this.gain === undefined && this.framesApplied === 0) {
      this.gain = wanted;
      return;
    }
    this.gain ??= 0;
    const most = this.meter.seconds < SETTLING_SECONDS ? SETTLING_DB_PER_FRAME : SETTLED_DB_PER_FRAME;
    this.gain += Math.max(-most, Math.min(most, wanted - this.gain));
  }
}

function clampGain(db: number): number {
  return Math.max(MAX_CUT_DB, Math.min(MAX_BOOST_DB, db));
}

/**
 * Multiplies `frame` by an amplitude ramped from `start` to `end` across it. `bounded`: a sample may
 * land past the ceiling (its peak was not known when `start` was chosen) and is held under it;
 * otherwise both ends are under the frame's limit and the plain product (truncated: the array stores
 * integers) is safe, which is the common case and the cheap one.
 */
function scale(frame: Int16Array, start: number, end: number, bounded: boolean): void {
  // Ramped per sample, not per stereo pair: the two channels of a pair differ by a 4000th of the
  // frame's change, far below hearing, and the flat loop is what runs for every frame of every bot.
  const step = (end - start) / frame.length;
  let amplitude = start;
  if (bounded) {
    for (let i = 0; i < frame.length; i++) {
      amplitude += step;
      frame[i] = Math.max(-SAMPLE_CEILING, Math.min(SAMPLE_CEILING, (frame[i] as number) * amplitude));
    }
    return;
  }
  for (let i = 0; i < frame.length; i++) {
    amplitude += step;
    frame[i] = (frame[i] as number) * amplitude;
  }
}

/** The largest magnitude in `frame`: an indexed loop (a `for…of` over a typed array is 3 times slower). */
function peakOf(frame: Int16Array): number {
  let max = 0;
  let min = 0;
  for (let i = 0; i < frame.length; i++) {
    const sample = frame[i] as number;
    max = Math.max(max, sample);
    min = Math.min(min, sample);
  }
  return Math.max(max, -min);
}
