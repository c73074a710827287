import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { decodeToMono, estimateFrequencyHz, rms, sineFrames } from '../../../testkit/audio-signals';
import { FrameRing, newRingRecord } from '../engine/frame-ring';
import { SAMPLES_PER_FRAME } from '../pcm-format';
import { OpusEncoder, opusBuild, SYSTEM_ADDON_PATH } from './encoder';
import { OPUS_SILENCE_FRAME } from './opus-silence-frame';

/** Every build that loads here (make builds the system one; @evan/opus brings the other two). */
const LOADED = (['system', 'native', 'wasm'] as const).filter((build) => opusBuild(build) === build);

it('make builds the system encoder, and encoders take it first', () => {
  expect(LOADED, 'make builds build/opus-encoder.node (scripts/build-native.sh)').toContain('system');
  expect(opusBuild()).toBe('system');
  expect(new OpusEncoder().build).toBe('system');
  expect(new OpusEncoder({ build: 'wasm' }).build).toBe('wasm');
});

describe.each(LOADED)('OpusEncoder (%s)', (build) => {
  it('encodes 20 ms stereo frames that decode back to the same tone and level', () => {
    const encoder = new OpusEncoder({ build });
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

  it('encodes straight into a ring slot the same packets as into new arrays', () => {
    const [viaArrays, viaRing] = [new OpusEncoder({ build }), new OpusEncoder({ build })];
    const ring = new FrameRing();
    const record = newRingRecord();
    for (const [i, frame] of sineFrames(660, 0.2).entries()) {
      const slot = ring.reserve();
      if (!slot) throw new Error('the ring is full');
      ring.commit(1, i, 'audio', viaRing.encodeInto(frame, slot));
      expect(ring.take(record)).toBe(true);
      expect([...record.opus]).toEqual([...viaArrays.encode(frame)]);
    }
  });

  it('refuses a frame of the wrong size and use after destroy; destroy is idempotent', () => {
    const encoder = new OpusEncoder({ build });
    expect(() => encoder.encode(new Int16Array(100))).toThrow(/1920/);
    encoder.destroy();
    encoder.destroy();
    expect(() => encoder.encode(new Int16Array(SAMPLES_PER_FRAME))).toThrow(/destroy/);
  });
});

describe('the system encoder', () => {
  it('encodes on two threads at once without mixing their packets (no shared buffer, no lock)', async () => {
    const start = new Int32Array(new SharedArrayBuffer(4));
    // Plain JavaScript in the workers: they load the addon itself, as the audio workers do.
    const source = `
      const { parentPort, workerData } = require('node:worker_threads');
      const addon = require(workerData.addonPath);
      const encoder = addon.create(96000, 5);
      const out = new Uint8Array(1276);
      parentPort.postMessage('ready');
      Atomics.wait(new Int32Array(workerData.start), 0, 0);
      parentPort.postMessage(workerData.frames.map((pcm) => out.slice(0, addon.encodeInto(encoder, pcm, out))));
    `;
    const tones = [440, 1000];
    const workers = tones.map(
      (hz) =>
        new Worker(source, {
          eval: true,
          workerData: { addonPath: SYSTEM_ADDON_PATH, start: start.buffer, frames: sineFrames(hz, 4) },
        }),
    );
    const results = workers.map(
      (worker) =>
        new Promise<Uint8Array[]>((resolve, reject) => {
          worker.on('message', (message) => {
            if (message !== 'ready') resolve(message);
          });
          worker.once('error', reject);
        }),
    );
    await Promise.all(workers.map((worker) => new Promise((resolve) => worker.once('message', resolve))));
    Atomics.store(start, 0, 1);
    Atomics.notify(start, 0);
    const packets = await Promise.all(results);
    await Promise.all(workers.map((worker) => worker.terminate()));
    for (const [i, hz] of tones.entries()) {
      const decoded = decodeToMono(packets[i] ?? []).subarray(4800);
      expect(estimateFrequencyHz(decoded)).toBeCloseTo(hz, 0);
      expect(rms(decoded)).toBeCloseTo(0.5 / Math.SQRT2, 1);
    }
  });
});

it('the WASM build frees its memory so many encoders can come and go', () => {
  // The WASM heap is a fixed 16 MB; leaking ~30 KB per encoder would exhaust it well before 2000.
  for (let i = 0; i < 2000; i++) new OpusEncoder({ build: 'wasm' }).destroy();
});

it('leaves process-wide error handlers alone when the WASM module loads', () => {
  new OpusEncoder({ build: 'wasm' }).destroy();
  expect(process.listeners('unhandledRejection').some((listener) => listener.name === 'abort')).toBe(false);
});

describe('OPUS_SILENCE_FRAME', () => {
  it('is the 3-byte frame that decodes to 20 ms of silence', () => {
    expect([...OPUS_SILENCE_FRAME]).toEqual([0xf8, 0xff, 0xfe]);
    const decoded = decodeToMono([OPUS_SILENCE_FRAME]);
    expect(decoded.length).toBe(960);
    expect(rms(decoded)).toBe(0);
  });
});
