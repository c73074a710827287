import { describe, expect, it } from 'vitest';
import { toDb } from '../../../testkit/audio-signals';
import { SAMPLES_PER_FRAME } from '../pcm-format';
import { Gain, volumeToAmplitude } from './gain';

const constantFrame = (value: number) => new Int16Array(SAMPLES_PER_FRAME).fill(value);

/** Runs enough frames for any ramp to settle and returns the last one. */
function settle(gain: Gain, value: number, frames = 30): Int16Array {
  let frame = constantFrame(value);
  for (let i = 0; i < frames; i++) {
    frame = constantFrame(value);
    gain.apply(frame);
  }
  return frame;
}

describe('volume curve', () => {
  it('is the documented square law: 50 → 0.25 (−12.04 dB)', () => {
    expect(volumeToAmplitude(100)).toBe(1);
    expect(volumeToAmplitude(50)).toBe(0.25);
    expect(toDb(volumeToAmplitude(50))).toBeCloseTo(-12.04, 2);
    expect(volumeToAmplitude(0)).toBe(0);
    expect(volumeToAmplitude(150)).toBe(1);
  });
});

describe('Gain', () => {
  it('scales a frame in place at the set volume', () => {
    const frame = constantFrame(20_000);
    new Gain({ volumePercent: 50 }).apply(frame);
    expect(frame.every((sample) => sample === 5000)).toBe(true);
  });

  it('ramps a volume change sample by sample instead of jumping', () => {
    const gain = new Gain({ volumePercent: 100 });
    gain.setVolume(0);
    const frame = constantFrame(30_000);
    gain.apply(frame);
    let largestStep = 0;
    for (let i = 2; i < frame.length; i += 2)
      largestStep = Math.max(largestStep, Math.abs((frame[i] ?? 0) - (frame[i - 2] ?? 0)));
    // 30 000 over a 50 ms (2400-sample) ramp is 12.5 per sample; a jump would be 30 000.
    expect(largestStep).toBeLessThanOrEqual(13);
    expect(frame[0]).toBeGreaterThan(29_900);
    expect(frame[frame.length - 1]).toBeLessThan(frame[0] ?? 0);
    expect(settle(gain, 30_000)[0]).toBe(0);
  });

  it('ducks while someone talks and restores smoothly afterwards', () => {
    const gain = new Gain({ volumePercent: 80 });
    gain.duck(50);
    expect(gain.ducked).toBe(true);
    expect(settle(gain, 10_000)[0]).toBe(Math.round(10_000 * volumeToAmplitude(40)));
    gain.unduck();
    const firstAfter = constantFrame(10_000);
    gain.apply(firstAfter);
    // A 400 ms release: one 20 ms frame later it has only moved a twentieth of the way back.
    expect(firstAfter[firstAfter.length - 1]).toBeLessThan(Math.round(10_000 * volumeToAmplitude(80)) - 1500);
    expect(settle(gain, 10_000)[0]).toBe(Math.round(10_000 * volumeToAmplitude(80)));
  });

  it('a steady gain gives the rounded product for every sample, up to just under full volume', () => {
    const everySample = () => Int16Array.from({ length: 65_536 }, (_, i) => i - 32_768);
    for (const volumePercent of [1, 33, 50, 77, 99.99999]) {
      const frame = everySample();
      new Gain({ volumePercent }).apply(frame);
      const amplitude = volumeToAmplitude(volumePercent);
      let worst = 0;
      for (let i = 0; i < frame.length; i++)
        worst = Math.max(worst, Math.abs((frame[i] ?? 0) - (i - 32_768) * amplitude));
      // Within rounding, with the sign kept: no sample wraps around at the ends of the range.
      expect(worst).toBeLessThanOrEqual(1);
      expect(frame[0]).toBeLessThanOrEqual(0);
      expect(frame[frame.length - 1]).toBeGreaterThanOrEqual(0);
    }
  });

  it('clamps to the Int16 range', () => {
    const frame = Int16Array.of(-32768, 32767);
    new Gain({ volumePercent: 100 }).apply(frame);
    expect([...frame]).toEqual([-32768, 32767]);
  });
});
