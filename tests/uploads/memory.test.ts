/**
 * A large upload is streamed to disk, never held in memory: 300 MB (an MP3 frame header followed by
 * filler, made on the fly) goes through the real app while the process's resident memory is sampled.
 * ffprobe may well refuse the result; what counts here is the memory.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Session, setupAdmin } from '../../testkit/accounts';
import { startTestApp, type TestApp } from '../../testkit/test-app';
import { uploadRequest } from './media-files';

const BODY_BYTES = 300 * 1024 * 1024;
const CHUNK_BYTES = 64 * 1024;
const MAX_RSS_GROWTH_BYTES = 64 * 1024 * 1024;
/** An MPEG-1 layer III frame header (128 kbit/s, 44.1 kHz) so the body starts like an MP3. */
const MP3_FRAME_HEADER = [0xff, 0xfb, 0x90, 0x64];

let t: TestApp;
let admin: Session;
beforeAll(async () => {
  t = await startTestApp({ withDaemon: false });
  admin = await setupAdmin(t);
});
afterAll(() => t.close());

function generatedBody(): { stream: ReadableStream<Uint8Array>; sent: () => number } {
  let sent = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (sent >= BODY_BYTES) return controller.close();
      const chunk = new Uint8Array(Math.min(CHUNK_BYTES, BODY_BYTES - sent));
      if (sent === 0) chunk.set(MP3_FRAME_HEADER);
      else chunk.fill(sent % 251);
      sent += chunk.length;
      controller.enqueue(chunk);
    },
  });
  return { stream, sent: () => sent };
}

describe('streaming a 300 MB upload', () => {
  it('keeps the growth of resident memory under 64 MB', { timeout: 120_000 }, async () => {
    globalThis.gc?.();
    const baseline = process.memoryUsage().rss;
    let peak = baseline;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 20);
    const body = generatedBody();
    try {
      const response = await t.fetch(uploadRequest({ name: 'big.mp3', bytes: body.stream }), admin.jar);
      expect([200, 400]).toContain(response.status);
    } finally {
      clearInterval(sampler);
    }
    peak = Math.max(peak, process.memoryUsage().rss);
    expect(body.sent()).toBe(BODY_BYTES);
    expect(peak - baseline).toBeLessThan(MAX_RSS_GROWTH_BYTES);
  });
});
