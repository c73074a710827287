import { describe, expect, it } from 'vitest';
import { LoudnessMeter } from './loudness-meter';

/** Interleaved stereo s16le bytes of a sine whose peak is `peakDb` dBFS in both channels. */
function sineBytes(frequencyHz: number, seconds: number, peakDb: number, startSample = 0): Buffer {
  const pairs = Math.round(seconds * 48_000);
  const amplitude = 32767 * 10 ** (peakDb / 20);
  const bytes = Buffer.alloc(pairs * 4);
  for (let i = 0; i < pairs; i++) {
    const value = Math.round(amplitude * Math.sin((2 * Math.PI * frequencyHz * (startSample + i)) / 48_000));
    bytes.writeInt16LE(value, i * 4);
    bytes.writeInt16LE(value, i * 4 + 2);
  }
  return bytes;
}

describe('LoudnessMeter (ITU-R BS.1770-4)', () => {
  it('reads EBU Tech 3341 case 1: a 1 kHz stereo sine at -23 dBFS is -23 LUFS', () => {
    const meter = new LoudnessMeter();
    meter.addBytes(sineBytes(1000, 20, -23));
    expect(meter.integrated()).toBeCloseTo(-23, 1);
    expect(meter.seconds).toBeCloseTo(20, 3);
  });

  it('reads EBU Tech 3341 case 3: -36, -23 and -36 dBFS for 10, 60 and 10 s gate the quiet parts away', () => {
    const meter = new LoudnessMeter();
    meter.addBytes(sineBytes(1000, 10, -36));
    meter.addBytes(sineBytes(1000, 60, -23, 480_000));
    meter.addBytes(sineBytes(1000, 10, -36, 3_360_000));
    expect(meter.integrated()).toBeCloseTo(-23, 1);
  });

  it('ignores silence (the absolute gate) and says nothing before a block is heard', () => {
    const meter = new LoudnessMeter();
    expect(meter.integrated()).toBeUndefined();
    meter.addBytes(Buffer.alloc(48_000 * 4 * 3));
    expect(meter.integrated()).toBeUndefined();
    meter.addBytes(sineBytes(1000, 5, -20));
    // The blocks across the onset, partly silent, pass the gates too (as BS.1770 has it).
    expect(meter.integrated()).toBeCloseTo(-20, 0);
  });

  it('measures the same however the pipe cut the bytes (pairs split across chunks)', () => {
    const bytes = sineBytes(440, 3, -12);
    const whole = new LoudnessMeter();
    whole.addBytes(bytes);
    const cut = new LoudnessMeter();
    for (let offset = 0; offset < bytes.length; offset += 4097)
      cut.addBytes(bytes.subarray(offset, offset + 4097));
    expect(cut.integrated()).toBe(whole.integrated());
    expect(cut.seconds).toBe(whole.seconds);
  });
});
