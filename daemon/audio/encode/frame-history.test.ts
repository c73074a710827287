import { describe, expect, it } from 'vitest';
import { SAMPLES_PER_FRAME } from '../pcm-format';
import { FrameHistory } from './frame-history';
import { Gain } from './gain';

const frameOf = (value: number) => new Int16Array(SAMPLES_PER_FRAME).fill(value);

describe('FrameHistory', () => {
  it('gives back the last frames as they were recorded, and forgets older ones', () => {
    const history = new FrameHistory(4);
    const gain = new Gain();
    for (let sequence = 0; sequence < 6; sequence++) history.record(sequence, frameOf(sequence * 10), gain);
    const into = new Int16Array(SAMPLES_PER_FRAME);
    expect(history.recall(1, into)).toBeUndefined();
    expect(history.recall(2, into)?.[0]).toBe(20);
    expect(history.recall(5, into)?.[SAMPLES_PER_FRAME - 1]).toBe(50);
    expect(history.keepsFrom(2, 6)).toBe(true);
    expect(history.keepsFrom(1, 6)).toBe(false);
    history.clear();
    expect(history.has(5)).toBe(false);
  });

  it('puts the gain back where its ramp stood before a frame', () => {
    const history = new FrameHistory(4);
    const gain = new Gain({ volumePercent: 100 });
    gain.setVolume(50);
    const frame = frameOf(1000);
    history.record(0, frame, gain);
    gain.apply(frame);
    const rampedOnce = frame[frame.length - 1];
    history.record(1, frameOf(1000), gain);
    // Replaying frame 0 from where the ramp stood gives the same samples as the first time.
    history.restoreGain(0, gain);
    const again = frameOf(1000);
    gain.apply(again);
    expect(again[again.length - 1]).toBe(rampedOnce);
    expect(again[0]).toBe(1000);
  });
});
