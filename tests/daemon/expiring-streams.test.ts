/**
 * Platform streams whose signed addresses expire, as a connected bot plays them: the loopback CDN
 * refuses an address (403) once its time is up, as the platforms' CDNs do. Each stand-in source answers
 * as its adapter does (its headers; see platform-streams.test.ts) with an address freshly signed at
 * every resolve. The CDN cannot be an msw stand-in: the daemon fetches audio in its worker threads,
 * which msw does not reach.
 *
 * - A connection the CDN drops after the address expired: ffmpeg reconnects with a Range, the relay
 *   meets the refusal, resolves the song again and fetches the same range from the fresh address; the
 *   song plays to its end with no note.
 * - A seek after a pause longer than the address's life does the same from the new position.
 * - When the fresh address is refused too, the song is skipped with the refusal's note in the channel.
 *
 * Spotify plays through librespot (a loopback PCM relay), with no address to expire; uploads and a
 * user's radio streams are not signed.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Platform } from '../../shared/domain/constants';
import type { Song } from '../../shared/domain/schemas';
import { receipts } from '../../shared/receipts';
import { ok } from '../../shared/result';
import type { MusicSource, StreamHeaders } from '../../shared/sources/music-source';
import { SourceRegistry } from '../../shared/sources/source-registry';
import { Ts3TestServer } from '../../testkit/ts3-server/ts3-test-server';
import { type AudioCdn, startAudioCdn } from '../helpers/audio-cdn';
import { DaemonHarness } from './harness';

/** Each platform that plays from a signed address, with the headers its adapter sends. */
const PLATFORMS: { platform: Platform; headers?: StreamHeaders }[] = [
  { platform: 'music_a', headers: { referer: 'https://music.163.com/', userAgent: 'Mozilla/5.0 netease' } },
  { platform: 'music_b', headers: { userAgent: 'QQMusic 14090008(android 10)' } },
  { platform: 'music_c' },
  { platform: 'video_a', headers: { referer: 'https://www.bilibili.com/', userAgent: 'Mozilla/5.0' } },
  { platform: 'video_b', headers: { userAgent: 'Mozilla/5.0 youtube' } },
  { platform: 'library_a', headers: { authorization: 'MediaBrowser Token="jellyfin"' } },
];
/** How long an address the CDN signs stays good. */
const LIFE_MS = 3000;
const TONE_SECONDS = 12;

let server: Ts3TestServer;
let h: DaemonHarness;
let cdn: AudioCdn;
let bot: string;
const said: string[] = [];
/** Songs resolved, by song id, in order. */
const resolves: string[] = [];
/** Songs whose every resolve after the first is an address that has already expired. */
const renewedExpired = new Set<string>();

/** A source answering as a platform's adapter does: an address signed now, with its headers. */
function standIn(platform: Platform, headers: StreamHeaders | undefined): MusicSource {
  return {
    platform,
    resolveStream: async (song) => {
      const life = renewedExpired.has(song.id) && resolves.includes(song.id) ? -1 : LIFE_MS;
      resolves.push(song.id);
      return ok({
        input: { kind: 'url', url: cdn.sign(`${song.id}.mp3`, life), ...(headers && { headers }) },
      });
    },
  };
}

const song = (platform: Platform, id: string): Song => ({
  id,
  name: `${platform} ${id}`,
  artist: 'Tone',
  album: '',
  duration: TONE_SECONDS,
  coverUrl: '',
  platform,
});

const resolvesOf = (id: string) => resolves.filter((r) => r === id).length;
/** The CDN's answers to the signed addresses of `id`, in order: `<status> <range>`. */
const answersFor = (id: string) =>
  cdn.requests
    .filter((r) => r.url.includes(`/${id}.mp3`))
    .map((r) => `${r.status} ${r.headers.range ?? 'whole'}`);

beforeAll(async () => {
  cdn = await startAudioCdn(TONE_SECONDS);
  server = await Ts3TestServer.start();
  h = await DaemonHarness.create(server);
  await h.startDaemon(new SourceRegistry(PLATFORMS.map((p) => standIn(p.platform, p.headers))));
  bot = await h.addBot(server.port, { name: 'Expiry' });
  server.on('textMessage', ({ message }) => said.push(message));
  expect((await h.command(bot, 'start')).ok).toBe(true);
  // A first song warms the daemon's audio up, so the tests' addresses are fetched well within their life.
  const warmUp = song('music_a', 'warm-up');
  expect((await h.command(bot, 'playSong', { song: warmUp, requestedBy: 'alice' })).ok).toBe(true);
  await h.waitForStatus(bot, (s) => s.currentSong?.id === warmUp.id && s.elapsed > 0.5, 15_000, 'warm-up');
}, 60_000);

afterAll(async () => {
  await h?.close();
  await server?.close();
  await cdn?.close();
});

describe('signed stream addresses that expire', () => {
  it.each(PLATFORMS)(
    '$platform: a reconnect and a seek after the address expired play on from a fresh one',
    async ({ platform, headers }) => {
      const playing = song(platform, `drops/${platform}`);
      const next = song(platform, `next-${platform}`);
      await h.command(bot, 'clear');
      expect((await h.command(bot, 'playSong', { song: playing, requestedBy: 'alice' })).ok).toBe(true);
      expect((await h.command(bot, 'addSong', { song: next, requestedBy: 'alice' })).ok).toBe(true);
      const saidBefore = said.length;

      // The CDN drops the first connection half-way through the file once the address has expired:
      // the reconnect's range is refused, then asked of the fresh address, and the song plays past it.
      const half = await h.waitForStatus(
        bot,
        (s) => s.currentSong?.id === playing.id && s.elapsed > TONE_SECONDS / 2 + 1,
        20_000,
        `${platform} playing past the dropped half`,
      );
      expect(half.playing).toBe(true);
      const answers = answersFor(playing.id);
      expect(resolvesOf(playing.id)).toBe(2);
      expect(answers[0]).toBe('200 bytes=0-');
      expect(answers.slice(1)).toEqual([
        expect.stringMatching(/^403 bytes=\d+-$/),
        expect.stringMatching(/^206 bytes=\d+-$/),
      ]);
      // The same range, asked of the fresh address, with the platform's headers.
      expect(answers[2]!.slice(4)).toBe(answers[1]!.slice(4));
      const fresh = cdn.requests.filter((r) => r.url.includes(`/${playing.id}.mp3`)).at(-1)!;
      expect(fresh.url).not.toBe(cdn.requests.find((r) => r.url.includes(`/${playing.id}.mp3`))!.url);
      if (headers?.userAgent) expect(fresh.headers['user-agent']).toBe(headers.userAgent);
      if (headers?.referer) expect(fresh.headers.referer).toBe(headers.referer);
      if (headers?.authorization) expect(fresh.headers.authorization).toBe(headers.authorization);

      // Paused longer than the fresh address lives, then a seek: the new decoder's first request is
      // refused and the song resolved once more; it plays on from the position asked.
      expect((await h.command(bot, 'pause')).ok).toBe(true);
      await sleep(LIFE_MS + 200);
      const target = TONE_SECONDS - 3;
      expect((await h.command(bot, 'seek', { position: target })).ok).toBe(true);
      expect((await h.command(bot, 'resume')).ok).toBe(true);
      const resumed = await h.waitForStatus(
        bot,
        (s) => s.currentSong?.id === playing.id && s.playing && s.elapsed > target,
        10_000,
        `${platform} playing on after the seek`,
      );
      expect(resumed.elapsed).toBeLessThan(target + 1);
      expect(resolvesOf(playing.id)).toBe(3);
      expect(answersFor(playing.id).slice(3, 4)).toEqual([expect.stringMatching(/^403 /)]);
      expect(answersFor(playing.id).at(-1)).toMatch(/^20[06] /);

      // It plays to its end, and the next song follows; nothing was said about the expired addresses.
      await h.waitForStatus(
        bot,
        (s) => s.currentSong?.id === next.id && s.playing,
        15_000,
        `${platform}: the next song playing`,
      );
      expect(said.slice(saidBefore)).toEqual([]);
    },
    60_000,
  );

  it('skips a song whose fresh address is refused too, with the note a refused stream gets', async () => {
    const refused = song('music_a', 'drops/refused-again');
    const next = song('music_a', 'after-refused');
    renewedExpired.add(refused.id);
    await h.command(bot, 'clear');
    expect((await h.command(bot, 'playSong', { song: refused, requestedBy: 'alice' })).ok).toBe(true);
    expect((await h.command(bot, 'addSong', { song: next, requestedBy: 'alice' })).ok).toBe(true);
    await h.waitFor(
      () => said.includes(receipts.playbackSourceRefused(refused)),
      20_000,
      () => `the refusal note (said ${JSON.stringify(said)})`,
    );
    const status = await h.waitForStatus(
      bot,
      (s) => s.currentSong?.id === next.id && s.playing,
      15_000,
      'the next song playing',
    );
    expect(status.connected).toBe(true);
    // Resolved once to play and once again when its address expired, however often ffmpeg tried
    // to reconnect: no more.
    expect(resolvesOf(refused.id)).toBe(2);
    const [first, ...reconnects] = answersFor(refused.id);
    expect(first).toBe('200 bytes=0-');
    expect(reconnects.length).toBeGreaterThanOrEqual(2);
    expect(reconnects.every((answer) => answer.startsWith('403 '))).toBe(true);
  }, 60_000);
});
