import { describe, expect, it } from 'vitest';
import { decodeToMono, estimateFrequencyHz, rms, sineFrames } from '../../tests/helpers/audio-signals';
import { OpusEncoder } from './encoder';
import { OPUS_SILENCE_FRAME } from './opus-silence-frame';
import { SAMPLES_PER_FRAME } from './pcm-format';

describe('OpusEncoder', () => {
  it('encodes 20 ms stereo frames that decode back to the same tone and level', () => {
    const encoder = new OpusEncoder();
    const packets = sineFrames(440, 1).map((frame) => encoder.encode(frame));
    encoder.destroy();
    // 96 kbps × 20 ms = 240 bytes on average; VBR lets single frames vary.
    const averageBytes = packets.reduce((sum, p) => sum + p.length, 0) / packets.length;
    expect(averageBytes).toBeGreaterThan(120);
    expect(averageBytes).toBeLessThan(400);
    const decoded = decodeToMono(packets).subarray(4800);
    expect(estimateFrequencyHz(decoded)).toBeCloseTo(440, 0);
    expect(rms(decoded)).toBeCloseTo(0.5 / Math.SQRT2, 1);
  });

  it('refuses a frame of the wrong size and use after destroy; destroy is idempotent', () => {
    const encoder = new OpusEncoder();
    expect(() => encoder.encode(new Int16Array(100))).toThrow(/1920/);
    encoder.destroy();
    encoder.destroy();
    expect(() => encoder.encode(new Int16Array(SAMPLES_PER_FRAME))).toThrow(/destroy/);
  });

  it('frees its WASM memory so many encoders can come and go', () => {
    // The WASM heap is a fixed 16 MB; leaking ~30 KB per encoder would exhaust it well before 2000.
    for (let i = 0; i < 2000; i++) new OpusEncoder().destroy();
  });

  it('leaves process-wide error handlers alone when the WASM module loads', () => {
    new OpusEncoder().destroy();
    expect(process.listeners('unhandledRejection').some((listener) => listener.name === 'abort')).toBe(false);
  });
});

describe('OPUS_SILENCE_FRAME', () => {
  it('is the 3-byte frame that decodes to 20 ms of silence', () => {
    expect([...OPUS_SILENCE_FRAME]).toEqual([0xf8, 0xff, 0xfe]);
    const decoded = decodeToMono([OPUS_SILENCE_FRAME]);
    expect(decoded.length).toBe(960);
    expect(rms(decoded)).toBe(0);
  });
});
