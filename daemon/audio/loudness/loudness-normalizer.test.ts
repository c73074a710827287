/**
 * The normalizer on frames alone: the gain a known figure asks for, and the limiter at the edges of the
 * shortcut that skips it (a cut deep enough that no 16-bit sample can pass the ceiling).
 */
import { describe, expect, it } from 'vitest';
import { TRUE_PEAK_CEILING_DB } from '../../../shared/domain/loudness';
import { LoudnessNormalizer } from './loudness-normalizer';

const FRAME_SAMPLES = 1920;

/** Stereo frames of a sine at `peak` (a 16-bit magnitude), whole frames of 20 ms. */
function sineFrames(peak: number, frames: number): Int16Array[] {
  return Array.from({ length: frames }, (_, f) => {
    const frame = new Int16Array(FRAME_SAMPLES);
    for (let i = 0; i < FRAME_SAMPLES; i += 2) {
      const n = f * (FRAME_SAMPLES / 2) + i / 2;
      frame[i] = frame[i + 1] = Math.round(peak * Math.sin((2 * Math.PI * 997 * n) / 48_000));
    }
    return frame;
  });
}

/** Plays `frames` through a normalizer whose figure asks for `gainDb`, each frame seeing the next. */
function normalized(frames: Int16Array[], gainDb: number, peekAhead = true): Int16Array[] {
  const normalizer = new LoudnessNormalizer({
    targetLufs: -16,
    known: { integratedLufs: -16 - gainDb, source: 'tags' },
  });
  frames.forEach((frame, i) => {
    normalizer.apply(frame, () => (peekAhead ? frames[i + 1] : undefined));
  });
  return frames;
}

const peakDb = (frames: Int16Array[]) =>
  20 * Math.log10(Math.max(...frames.map((frame) => Math.max(...frame.map(Math.abs)))) / 32768);

describe('LoudnessNormalizer', () => {
  it('cuts a full-scale sine by the figure when the cut alone keeps it under the ceiling', () => {
    const out = normalized(sineFrames(32767, 50), -6);
    expect(peakDb(out)).toBeCloseTo(-6, 1);
  });

  it('limits a full-scale sine cut by half a decibel: too little to skip the limiter', () => {
    for (const peekAhead of [true, false]) {
      const out = normalized(sineFrames(32767, 50), -0.5, peekAhead);
      expect(peakDb(out)).toBeLessThan(TRUE_PEAK_CEILING_DB);
      expect(peakDb(out)).toBeGreaterThan(TRUE_PEAK_CEILING_DB - 2);
    }
  });

  it('limits a boost that would clip, looking ahead or not, and never wraps a sample', () => {
    for (const peekAhead of [true, false]) {
      const frames = sineFrames(3000, 50);
      // A step up mid-way: the frame before it must already make room.
      for (const frame of frames.slice(25))
        for (let i = 0; i < frame.length; i++) frame[i] = (frame[i] ?? 0) * 8;
      const out = normalized(frames, 12, peekAhead);
      expect(peakDb(out)).toBeLessThan(TRUE_PEAK_CEILING_DB);
      // The quiet half is raised by the full figure: 3000 is -20.8 dBFS, +12 dB is -8.8.
      expect(peakDb(out.slice(5, 20))).toBeCloseTo(-8.8, 0);
    }
  });
});
