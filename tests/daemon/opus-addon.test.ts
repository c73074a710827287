/**
 * The Opus encoder addon (native/opus-encoder.c, built by `make` into build/opus-encoder.node) is what
 * the daemon encodes with, and it needs no lock between threads: two worker threads encoding at the
 * same moment get exactly the packets one thread gets alone. (@evan/opus's native build, shared
 * output buffer and all, garbles about a quarter of them that way: encoder-lock.ts.)
 */
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { OpusEncoder } from '../../daemon/audio/encoder';

const ADDON = fileURLToPath(new URL('../../build/opus-encoder.node', import.meta.url));
const FRAMES = 1500;

/** A thread that encodes FRAMES frames of a rising tone over noise (the same noise in every thread) with its own encoder, and sends back the packets. */
const ENCODING_THREAD = `
const { workerData, parentPort } = require('node:worker_threads');
const addon = require(workerData.addon);
const encoder = addon.create(96000, 5);
const pcm = new Int16Array(1920);
const packets = [];
let seed = 1;
for (let frame = 0; frame < workerData.frames; frame++) {
  for (let i = 0; i < 960; i++) {
    const t = (frame * 960 + i) / 48000;
    seed = (seed * 1103515245 + 12345) % 2147483648;
    const sample = Math.round(9000 * Math.sin(2 * Math.PI * (200 + 100 * t) * t) + (seed % 4000) - 2000);
    pcm[2 * i] = sample;
    pcm[2 * i + 1] = -sample;
  }
  packets.push(Buffer.from(addon.encode(encoder, pcm)).toString('base64'));
}
addon.destroy(encoder);
parentPort.postMessage(packets);
`;

function encodeOnThread(): Promise<string[]> {
  const worker = new Worker(ENCODING_THREAD, { eval: true, workerData: { addon: ADDON, frames: FRAMES } });
  return new Promise((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
}

describe('the Opus encoder addon', () => {
  it('is the encoder the daemon uses', () => {
    const encoder = new OpusEncoder();
    expect(encoder.engine).toBe('libopus');
    encoder.destroy();
  });

  it('gives two threads encoding at once the same packets as one thread alone', async () => {
    const alone = await encodeOnThread();
    const [first, second] = await Promise.all([encodeOnThread(), encodeOnThread()]);
    expect(alone).toHaveLength(FRAMES);
    expect(new Set(alone).size).toBeGreaterThan(FRAMES / 2); // real, varying packets
    expect(first).toEqual(alone);
    expect(second).toEqual(alone);
  });

  it('refuses what is not an encoder or not a 20 ms stereo frame, without crashing', async () => {
    const { createRequire } = await import('node:module');
    const addon = createRequire(import.meta.url)(ADDON) as {
      create(bitrate: number, complexity: number): object;
      encode(encoder: unknown, pcm: unknown): Uint8Array;
      destroy(encoder: unknown): void;
    };
    const encoder = addon.create(96_000, 5);
    expect(() => addon.encode(encoder, new Int16Array(100))).toThrow(/1920/);
    expect(() => addon.encode(encoder, new Float32Array(1920))).toThrow(/Int16Array/);
    expect(() => addon.encode({}, new Int16Array(1920))).toThrow(/encoder/);
    expect(() => addon.create(96_000, 42)).toThrow(/complexity/);
    addon.destroy(encoder);
    expect(() => addon.encode(encoder, new Int16Array(1920))).toThrow(/live encoder/);
  });
});
