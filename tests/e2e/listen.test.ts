/**
 * Listening along (issue 24 item 1) on real parts: the daemon plays a tone to the TS3 test server and
 * GET /api/player/{botId}/listen streams the same Opus packets as Ogg. An independent reader checks the
 * pages (CRCs, sequence, granules) and the packet rate over time, ffmpeg decodes the stream and hears
 * the tone, silence keeps the stream going while paused, and `listeners` counts the open streams.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_BUFFERED_BYTES } from '../../api/listen/listen-hub';
import type { Song } from '../../shared/domain/schemas';
import { createKey, type Session } from '../../testkit/accounts';
import { dominantFrequencyHz, FFMPEG, makeTempDir } from '../../testkit/audio-signals';
import { TEST_ORIGIN } from '../../testkit/test-app';
import { addToneUpload } from '../../testkit/tone-uploads';
import { readLive, readOggPages } from '../helpers/ogg-reader';
import { startVoiceApp, type VoiceApp } from '../helpers/voice-app';

let app: VoiceApp;
let admin: Session;
let botId: string;
let baseUrl: string;
let song: Song;
const tmp = makeTempDir('listen-test-');
const bot = () => ({ params: { path: { botId } } });
const listeners = async () =>
  (await admin.api.GET('/api/bot/{id}', { params: { path: { id: botId } } })).data?.listeners;

/** Reads the listen stream for `ms`, noting when each page arrived; `during` runs first. */
async function listenFor(ms: number, headers: Record<string, string>, during?: () => Promise<void>) {
  const heard = await readLive(`${baseUrl}/api/player/${botId}/listen`, headers, ms, during);
  expect(heard.status).toBe(200);
  const { pages } = readOggPages(heard.bytes);
  let offset = 0;
  for (const page of pages) {
    offset += 27 + page.packets.reduce((n, p) => n + Math.floor(p.length / 255) + 1 + p.length, 0);
    page.receivedAtMs = heard.arrivals.find((a) => a.bytes >= offset)?.atMs ?? 0;
  }
  return { ...heard, pages };
}

function decodeMono(bytes: Uint8Array): Float64Array {
  const file = tmp.file(`heard-${Date.now()}.ogg`);
  writeFileSync(file, bytes);
  const decoded = spawnSync(
    FFMPEG,
    ['-v', 'error', '-i', file, '-f', 's16le', '-ac', '1', '-ar', '48000', '-'],
    {
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  expect(decoded.status, decoded.stderr.toString()).toBe(0);
  const pcm = new Int16Array(decoded.stdout.buffer, decoded.stdout.byteOffset, decoded.stdout.length / 2);
  return Float64Array.from(pcm, (s) => s / 32768);
}

beforeAll(async () => {
  app = await startVoiceApp({ name: 'Radio', nickname: 'Radio Bot' });
  ({ admin, botId } = app);
  baseUrl = await app.t.listen();
  song = await addToneUpload(app.t.db, app.t.dataDir, 'Listen Tone', [{ frequencyHz: 660, seconds: 60 }]);
  await admin.api.POST('/api/bot/{id}/start', { params: { path: { id: botId } } });
  await admin.api.POST('/api/player/{botId}/play-song', { ...bot(), body: { song } });
}, 60_000);

afterAll(async () => {
  await app?.close();
  tmp.remove();
});

describe('GET /api/player/{botId}/listen', () => {
  it('streams the played tone as valid Ogg Opus, joining within a second, in real time', async () => {
    const heard = await listenFor(4000, { cookie: admin.jar.header()! }, async () => {
      await expect.poll(listeners, { timeout: 3000 }).toBe(1);
    });
    expect(heard.contentType).toBe('audio/ogg; codecs=opus');
    const [head, tags, ...audio] = heard.pages;
    expect(heard.pages.every((p) => p.crcOk)).toBe(true);
    expect(heard.pages.map((p) => p.sequence)).toEqual(heard.pages.map((_, i) => i));
    expect(new Set(heard.pages.map((p) => p.serial)).size).toBe(1);
    expect(head!.flags & 0x02).toBe(2);
    expect(String.fromCharCode(...head!.packets[0]!.subarray(0, 8))).toBe('OpusHead');
    expect(head!.packets[0]![9]).toBe(2);
    expect(String.fromCharCode(...tags!.packets[0]!.subarray(0, 8))).toBe('OpusTags');
    // Granules count 48 kHz samples: 960 per 20 ms packet, page after page.
    let packets = 0;
    for (const page of audio) {
      packets += page.packets.length;
      expect(page.granule).toBe(BigInt(packets * 960));
    }
    expect(audio[0]!.receivedAtMs).toBeLessThan(1000);
    // Real time: about 50 packets a second from the first audio page on (batches of 100 ms).
    const spanMs = audio.at(-1)!.receivedAtMs! - audio[0]!.receivedAtMs!;
    expect(packets - audio[0]!.packets.length).toBeGreaterThan((spanMs / 20) * 0.85);
    expect(packets - audio[0]!.packets.length).toBeLessThan((spanMs / 20) * 1.15 + 10);
    const mono = decodeMono(heard.bytes);
    expect(mono.length).toBeGreaterThan(48_000 * 3);
    expect(dominantFrequencyHz(mono)).toBeCloseTo(660, -1);
    await expect.poll(listeners, { timeout: 8000 }).toBe(0);
  });

  it('keeps going with silence while paused, and counts every listener; API keys work', async () => {
    const key = await createKey(admin, 'listen key');
    const second = listenFor(3000, { authorization: `Bearer ${key}` });
    const heard = await listenFor(3000, { cookie: admin.jar.header()! }, async () => {
      await expect.poll(listeners, { timeout: 3000 }).toBe(2);
      await admin.api.POST('/api/player/{botId}/pause', bot());
    });
    const other = await second;
    expect(other.pages.length).toBeGreaterThan(10);
    const audio = heard.pages.slice(2);
    const late = audio.filter((p) => p.receivedAtMs! > 1500).flatMap((p) => p.packets);
    // Paused: the 3-byte silence frame, at the same pace as music.
    expect(late.length).toBeGreaterThan(40);
    expect(late.every((p) => p.length <= 3)).toBe(true);
    await admin.api.POST('/api/player/{botId}/resume', bot());
    await expect.poll(listeners, { timeout: 8000 }).toBe(0);
  });

  it('drops a listener that stops reading once about 2 s are waiting for it', async () => {
    // Through the app itself, with no socket buffers in between: nothing reads this answer.
    const response = await app.t.fetch(
      new Request(`${TEST_ORIGIN}/api/player/${botId}/listen`, { headers: { cookie: admin.jar.header()! } }),
    );
    expect(response.status).toBe(200);
    await expect.poll(listeners, { timeout: 3000 }).toBe(1);
    await expect.poll(listeners, { timeout: 10_000 }).toBe(0);
    const kept = new Uint8Array(await response.arrayBuffer());
    expect(kept.length).toBeGreaterThan(MAX_BUFFERED_BYTES / 2);
    expect(kept.length).toBeLessThan(MAX_BUFFERED_BYTES * 2);
    expect(readOggPages(kept).pages.every((p) => p.crcOk)).toBe(true);
  });

  it('answers 404 for an unknown bot and 401 without credentials', async () => {
    const unknown = await fetch(`${baseUrl}/api/player/no-such-bot/listen`, {
      headers: { cookie: admin.jar.header()! },
    });
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toHaveProperty('error');
    expect((await fetch(`${baseUrl}/api/player/${botId}/listen`)).status).toBe(401);
  });
});
