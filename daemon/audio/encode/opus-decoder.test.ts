import { describe, expect, it } from 'vitest';
import { SAMPLES_PER_FRAME } from '../pcm-format';
import { OpusEncoder } from './encoder';
import { OpusDecoder } from './opus-decoder';

describe('OpusDecoder', () => {
  it('decodes a frame to 1920 interleaved samples', () => {
    const encoder = new OpusEncoder();
    const decoder = new OpusDecoder();
    const decoded = decoder.decode(encoder.encode(new Int16Array(SAMPLES_PER_FRAME)));
    if (!decoded.ok) throw new Error(decoded.error);
    expect(decoded.value).toBeInstanceOf(Int16Array);
    expect(decoded.value.length).toBe(SAMPLES_PER_FRAME);
    encoder.destroy();
    decoder.destroy();
    decoder.destroy();
  });

  it('rejects garbage as an error, not a crash', () => {
    const decoder = new OpusDecoder();
    // TOC code 3 ("arbitrary number of frames") needs a frame-count byte after it.
    expect(decoder.decode(Uint8Array.of(0x03))).toEqual({
      ok: false,
      error: expect.stringMatching(/opus_decode_float/),
    });
    expect(decoder.decode(new Uint8Array(4001))).toEqual({
      ok: false,
      error: expect.stringMatching(/too long/),
    });
    decoder.destroy();
    expect(() => decoder.decode(new Uint8Array(3))).toThrow(/destroy/);
  });
});
