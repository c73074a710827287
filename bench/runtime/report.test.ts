import { describe, expect, it } from 'vitest';
import type { StepRow } from './engine-run';
import { summarizeLateness } from './lateness';
import { largestPassingN } from './report';

/** A step in which `late` of 10 000 frames were over 10 ms late and `missed` were never sent. */
function step(bots: number, late: number, missed = 0): StepRow {
  const lateness = [
    ...Array.from({ length: 10_000 - late }, () => 1),
    ...Array.from({ length: late }, () => 30),
  ];
  const memory = { rssMb: 0, pssMb: 0 };
  return {
    ...{
      engine: 'workers',
      bots,
      nodeCpuMsPerAudioSecond: 0,
      decoderCpuMsPerAudioSecond: 0,
      serverCpuMsPerAudioSecond: 0,
      waitingForCpuPercent: 0,
    },
    ...{ frames: summarizeLateness(lateness), missedFrames: missed, arrivals: summarizeLateness([]) },
    trackChanges: 0,
    ...{ packetsPerBotSecond: 50, slowestBotPacketsPerSecond: 50, endPackets: 0 },
    ...{ sampledStreams: 0, audibleStreams: 0, decodeErrors: 0, rssMbPerBot: 0, pssMbPerBot: 0 },
    ...{ node: memory, perDecoder: memory, decoders: bots, others: { ...memory, names: [] } },
  };
}

describe('largestPassingN', () => {
  it('is the last step before the first one at or over 0.1 % late', () => {
    expect(largestPassingN([step(10, 0), step(25, 9), step(50, 10), step(100, 0)])).toBe(25);
  });

  it('counts a missed frame as a late one', () => {
    expect(largestPassingN([step(10, 0), step(25, 5, 4)])).toBe(25);
    expect(largestPassingN([step(10, 0), step(25, 5, 6)])).toBe(10);
  });

  it('is undefined when the first step fails or nothing was measured', () => {
    expect(largestPassingN([step(10, 50)])).toBeUndefined();
    expect(largestPassingN([])).toBeUndefined();
  });
});
