/**
 * The integrated loudness of what has been decoded so far (ITU-R BS.1770-4, EBU R128): K-weighted
 * mean square in 400 ms blocks every 100 ms, gated at -70 LUFS and then at 10 LU below the mean of the
 * blocks above that. Fed from the decoder's output, which runs seconds ahead of the send clock, so the
 * figure a frame is played at already knows the audio after it.
 *
 * The gated blocks are kept as a histogram of 0.1 LU bins (their count and summed power), not as a
 * list: a long stream costs no more memory or time than a short one, and the gates are applied over
 * 800 bins whatever the length. The bins' width limits nothing: the power summed in a bin is exact, and
 * only whether a block sits just above or below the relative gate is judged to 0.1 LU.
 */
import { PCM_FORMAT } from '../pcm-format';

/** BS.1770's K-weighting at 48 kHz: a high shelf (the head), then a high pass (RLB). Its own figures. */
const SHELF = {
  b0: 1.53512485958697,
  b1: -2.69169618940638,
  b2: 1.19839281085285,
  a1: -1.69065929318241,
  a2: 0.73248077421585,
};
const HIGH_PASS = { b0: 1, b1: -2, b2: 1, a1: -1.99004745483398, a2: 0.99007225036621 };

const HOP_SAMPLES = PCM_FORMAT.sampleRateHz / 10;
/** A block is four hops: 400 ms overlapping by 75 %. */
const HOPS_PER_BLOCK = 4;
const ABSOLUTE_GATE_LUFS = -70;
const RELATIVE_GATE_LU = 10;
const BIN_LU = 0.1;
/** Bins from the absolute gate up to +10 LUFS, above anything 16-bit audio can reach. */
const BINS = Math.ceil((10 - ABSOLUTE_GATE_LUFS) / BIN_LU);

/** A block's loudness from its mean square summed over the channels. */
const loudnessOf = (power: number): number => -0.691 + 10 * Math.log10(power);

/** One channel's two K-weighting biquads (direct form I state). */
class KWeighting {
  private x1 = 0;
  private x2 = 0;
  private y1 = 0;
  private y2 = 0;
  private z1 = 0;
  private z2 = 0;

  /** The weighted sample. */
  next(x: number): number {
    const y =
      SHELF.b0 * x + SHELF.b1 * this.x1 + SHELF.b2 * this.x2 - SHELF.a1 * this.y1 - SHELF.a2 * this.y2;
    this.x2 = this.x1;
    this.x1 = x;
    const z =
      HIGH_PASS.b0 * y +
      HIGH_PASS.b1 * this.y1 +
      HIGH_PASS.b2 * this.y2 -
      HIGH_PASS.a1 * this.z1 -
      HIGH_PASS.a2 * this.z2;
    this.y2 = this.y1;
    this.y1 = y;
    this.z2 = this.z1;
    this.z1 = z;
    return z;
  }
}

export class LoudnessMeter {
  private readonly left = new KWeighting();
  private readonly right = new KWeighting();
  /** Summed squares (both channels) of the last hops, newest last. */
  private readonly hops: number[] = [];
  private hopSum = 0;
  private hopFill = 0;
  private readonly binCount = new Uint32Array(BINS);
  private readonly binPower = new Float64Array(BINS);
  private measuredSamples = 0;
  /** The bytes of a stereo pair the last chunk split. */
  private readonly partial = new Uint8Array(4);
  private readonly partialView = new DataView(this.partial.buffer);
  private partialLength = 0;
  private cached: number | undefined;

  /** Seconds of audio measured. */
  get seconds(): number {
    return this.measuredSamples / PCM_FORMAT.sampleRateHz;
  }

  /** Adds interleaved stereo s16le bytes, as the decoder hands them out (a chunk may split a pair). */
  addBytes(chunk: Uint8Array): void {
    let offset = 0;
    while (this.partialLength > 0 && offset < chunk.length) {
      this.partial[this.partialLength++] = chunk[offset++] ?? 0;
      if (this.partialLength < 4) continue;
      this.addPair(this.partialView.getInt16(0, true), this.partialView.getInt16(2, true));
      this.partialLength = 0;
    }
    const view = new DataView(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    const end = offset + (chunk.length - offset - ((chunk.length - offset) % 4));
    for (; offset < end; offset += 4)
      this.addPair(view.getInt16(offset, true), view.getInt16(offset + 2, true));
    for (; offset < chunk.length; offset++) this.partial[this.partialLength++] = chunk[offset] ?? 0;
  }

  /** The integrated loudness so far (LUFS), or undefined before a block above the absolute gate. */
  integrated(): number | undefined {
    if (this.cached !== undefined) return this.cached;
    let count = 0;
    let power = 0;
    for (let bin = 0; bin < BINS; bin++) {
      count += this.binCount[bin] ?? 0;
      power += this.binPower[bin] ?? 0;
    }
    if (count === 0) return undefined;
    const relativeGate = loudnessOf(power / count) - RELATIVE_GATE_LU;
    count = 0;
    power = 0;
    for (let bin = Math.max(0, binOf(relativeGate)); bin < BINS; bin++) {
      count += this.binCount[bin] ?? 0;
      power += this.binPower[bin] ?? 0;
    }
    this.cached = count === 0 ? undefined : loudnessOf(power / count);
    return this.cached;
  }

  /** One stereo pair of 16-bit samples. */
  private addPair(left: number, right: number): void {
    const l = this.left.next(left / 32768);
    const r = this.right.next(right / 32768);
    this.hopSum += l * l + r * r;
    this.measuredSamples++;
    if (++this.hopFill < HOP_SAMPLES) return;
    this.hops.push(this.hopSum);
    this.hopSum = 0;
    this.hopFill = 0;
    if (this.hops.length > HOPS_PER_BLOCK) this.hops.shift();
    if (this.hops.length === HOPS_PER_BLOCK) this.addBlock();
  }

  private addBlock(): void {
    let sum = 0;
    for (const hop of this.hops) sum += hop;
    const power = sum / (HOP_SAMPLES * HOPS_PER_BLOCK);
    const bin = binOf(loudnessOf(power));
    if (bin < 0) return;
    const index = Math.min(BINS - 1, bin);
    this.binCount[index] = (this.binCount[index] ?? 0) + 1;
    this.binPower[index] = (this.binPower[index] ?? 0) + power;
    this.cached = undefined;
  }
}

/** The bin of a loudness; negative below the absolute gate. */
function binOf(lufs: number): number {
  return Math.floor((lufs - ABSOLUTE_GATE_LUFS) / BIN_LU);
}
