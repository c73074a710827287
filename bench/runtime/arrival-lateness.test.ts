import { describe, expect, it } from 'vitest';
import { ArrivalLateness, runLateness } from './arrival-lateness';

describe('runLateness', () => {
  it('measures each packet against the earliest transit of its run', () => {
    // Ids 10-13 due every 20 ms; the second packet is 7 ms late, the first 2 ms.
    expect(runLateness([10, 11, 12, 13], [1002, 1027, 1040, 1060])).toEqual([2, 7, 0, 0]);
  });
});

describe('ArrivalLateness', () => {
  it('counts a steady stream as on time whatever its constant delay', () => {
    const stream = new ArrivalLateness();
    for (let id = 0; id < 100; id++) stream.onAudio(id, 5000 + 3.5 + id * 20);
    const lateness = stream.take();
    expect(lateness).toHaveLength(100);
    expect(Math.max(...lateness)).toBeCloseTo(0, 9);
  });

  it('starts a new run after an end of voice or a long gap, so a seek or a pause is not lateness', () => {
    const stream = new ArrivalLateness();
    stream.onAudio(0, 0);
    stream.onAudio(1, 20);
    stream.onEnd(2);
    // Numbering goes on where it stopped, time has moved on by seconds.
    stream.onAudio(3, 5000);
    stream.onAudio(4, 5020);
    // A re-buffering gap (no end packet) of 200 ms.
    stream.onAudio(5, 5240);
    stream.onAudio(6, 5275);
    expect(stream.take()).toEqual([0, 0, 0, 0, 0, 15]);
  });

  it('follows voice ids across their 16-bit wrap', () => {
    const stream = new ArrivalLateness();
    stream.onAudio(0xfffe, 0);
    stream.onAudio(0xffff, 20);
    stream.onAudio(0, 40);
    stream.onAudio(1, 72);
    expect(stream.take()).toEqual([0, 0, 0, 12]);
  });

  it('starts every window afresh', () => {
    const stream = new ArrivalLateness();
    stream.onAudio(0, 0);
    stream.take();
    stream.onAudio(1, 30);
    stream.onAudio(2, 50);
    expect(stream.take()).toEqual([0, 0]);
  });
});
