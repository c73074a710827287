import { describe, expect, it } from 'vitest';
import { OpusEncoder } from './encoder';
import { OpusDecoder } from './opus-decoder';
import { SAMPLES_PER_FRAME } from './pcm-format';

describe('OpusDecoder', () => {
  it('decodes a frame to 1920 interleaved samples', () => {
    const encoder = new OpusEncoder();
    const decoder = new OpusDecoder();
    const pcm = decoder.decode(encoder.encode(new Int16Array(SAMPLES_PER_FRAME)));
    expect(pcm).toBeInstanceOf(Int16Array);
    expect(pcm.length).toBe(SAMPLES_PER_FRAME);
    encoder.destroy();
    decoder.destroy();
    decoder.destroy();
  });

  it('rejects garbage as an error, not a crash', () => {
    const decoder = new OpusDecoder();
    // TOC code 3 ("arbitrary number of frames") needs a frame-count byte after it.
    expect(() => decoder.decode(Uint8Array.of(0x03))).toThrow(/opus_decode_float/);
    decoder.destroy();
    expect(() => decoder.decode(new Uint8Array(3))).toThrow(/destroy/);
  });
});
