import { describe, expect, it } from 'vitest';
import { FRAME_BYTES, SAMPLES_PER_FRAME } from '../pcm-format';
import { PCM_HIGH_WATER_BYTES, PCM_LOW_WATER_BYTES, PcmBuffer } from './pcm-buffer';

function bytes(count: number, start = 0): Buffer {
  const buffer = Buffer.alloc(count);
  for (let i = 0; i < count; i++) buffer[i] = (start + i) & 0xff;
  return buffer;
}

describe('PcmBuffer', () => {
  it('uses the SPEC marks: pause at 960 KB, resume at 480 KB', () => {
    expect(PCM_HIGH_WATER_BYTES).toBe(960 * 1024);
    expect(PCM_LOW_WATER_BYTES).toBe(480 * 1024);
  });

  it('hands out whole 3840-byte frames assembled across chunks', () => {
    const buffer = new PcmBuffer();
    buffer.write(bytes(1000));
    expect(buffer.readFrame()).toBeUndefined();
    buffer.write(bytes(FRAME_BYTES, 1000));
    const frame = buffer.readFrame();
    expect(frame?.length).toBe(SAMPLES_PER_FRAME);
    expect(Buffer.from(frame?.buffer ?? new ArrayBuffer(0)).equals(bytes(FRAME_BYTES))).toBe(true);
    expect(buffer.byteLength).toBe(1000);
  });

  it('pads the last partial frame with silence after end, then is exhausted', () => {
    const buffer = new PcmBuffer();
    buffer.write(Buffer.alloc(100, 0x11));
    buffer.end();
    expect(buffer.exhausted).toBe(false);
    const frame = buffer.readFrame();
    expect(frame?.length).toBe(SAMPLES_PER_FRAME);
    expect(frame?.[0]).toBe(0x1111);
    expect(frame?.[SAMPLES_PER_FRAME - 1]).toBe(0);
    expect(buffer.exhausted).toBe(true);
    expect(buffer.readFrame()).toBeUndefined();
  });

  it('fills a reused frame, zeroing what a partial last frame does not cover', () => {
    const buffer = new PcmBuffer();
    const target = new Int16Array(SAMPLES_PER_FRAME).fill(7);
    buffer.write(Buffer.alloc(4, 0x22));
    buffer.end();
    expect(buffer.readFrame(target)).toBe(target);
    expect([target[0], target[1], target[2], target[SAMPLES_PER_FRAME - 1]]).toEqual([0x2222, 0x2222, 0, 0]);
  });

  it('asks the producer to pause at the high mark and drains once at the low mark', () => {
    let drains = 0;
    const buffer = new PcmBuffer({
      highWaterBytes: FRAME_BYTES * 4,
      lowWaterBytes: FRAME_BYTES * 2,
      onDrain: () => drains++,
    });
    expect(buffer.write(bytes(FRAME_BYTES * 3))).toBe(true);
    expect(buffer.write(bytes(FRAME_BYTES * 2))).toBe(false);
    buffer.readFrame();
    buffer.readFrame();
    expect(drains).toBe(0);
    buffer.readFrame();
    expect(drains).toBe(1);
    buffer.readFrame();
    expect(drains).toBe(1);
    expect(buffer.write(bytes(FRAME_BYTES))).toBe(true);
  });
});
