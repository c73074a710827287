/** Test tones and their analysis: what a listener would hear, reduced to numbers. */
import { FRAME_SAMPLES, OPUS_SAMPLE_RATE } from './opus';

/** `seconds` of a sine at `frequency` as interleaved stereo 20 ms frames. */
export function sineFrames(frequency: number, seconds: number, amplitude = 0.5): Float32Array[] {
  const frames: Float32Array[] = [];
  const count = Math.round((seconds * OPUS_SAMPLE_RATE) / FRAME_SAMPLES);
  for (let f = 0; f < count; f++) {
    const frame = new Float32Array(FRAME_SAMPLES * 2);
    for (let i = 0; i < FRAME_SAMPLES; i++) {
      const v = amplitude * Math.sin((2 * Math.PI * frequency * (f * FRAME_SAMPLES + i)) / OPUS_SAMPLE_RATE);
      frame[2 * i] = v;
      frame[2 * i + 1] = v;
    }
    frames.push(frame);
  }
  return frames;
}

/** Power of one frequency in `samples` (Goertzel). */
function goertzel(samples: Float32Array, frequency: number, rate: number): number {
  const coeff = 2 * Math.cos((2 * Math.PI * frequency) / rate);
  let s1 = 0;
  let s2 = 0;
  for (const x of samples) {
    const s = x + coeff * s1 - s2;
    s2 = s1;
    s1 = s;
  }
  return s1 * s1 + s2 * s2 - coeff * s1 * s2;
}

/**
 * The strongest frequency between 50 Hz and 4 kHz in one second from the middle of a mono signal: a
 * 5 Hz scan, then a 0.5 Hz refinement around the peak.
 */
export function dominantFrequency(mono: Float32Array, rate = OPUS_SAMPLE_RATE): number {
  const mid = Math.max(0, Math.floor(mono.length / 2 - rate / 2));
  const window = mono.subarray(mid, Math.min(mono.length, mid + rate));
  const peak = (from: number, to: number, step: number) => {
    let best = from;
    let bestPower = -1;
    for (let f = from; f <= to; f += step) {
      const p = goertzel(window, f, rate);
      if (p > bestPower) {
        bestPower = p;
        best = f;
      }
    }
    return best;
  };
  const coarse = peak(50, 4000, 5);
  return peak(coarse - 5, coarse + 5, 0.5);
}
