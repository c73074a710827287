/**
 * Platform streams whose signed addresses expire, as a connected bot plays them: the loopback CDN
 * refuses an address (403) once its time is up, as the platforms' CDNs do. The songs of NetEase, QQ
 * Music, Kugou and Bilibili are resolved by their real adapters, whose API calls an msw stand-in
 * answers in the platform's own shape (the adapters' own tests' stand-ins and fixtures) with an address
 * of the CDN freshly signed at every resolve; YouTube's by its adapter running the fake yt-dlp, which
 * prints an address signed afresh at each run. The CDN cannot be an msw stand-in: the daemon fetches
 * audio in its worker threads, which msw does not reach; a platform's address is not held to the
 * request-forgery guard (only a user's is), so a loopback one plays as a platform's CDN does.
 * Jellyfin (an address built from the media server's own, not signed to expire) keeps a stand-in
 * source answering as its adapter does (see platform-streams.test.ts).
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
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { HttpResponse } from 'msw';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Platform } from '../../shared/domain/constants';
import type { Song } from '../../shared/domain/schemas';
import { receipts } from '../../shared/receipts';
import { ok } from '../../shared/result';
import { BilibiliClient } from '../../shared/sources/bilibili/bilibili-client';
import { BilibiliSource } from '../../shared/sources/bilibili/bilibili-source';
import { KugouClient } from '../../shared/sources/kugou/kugou-client';
import { KugouSource } from '../../shared/sources/kugou/kugou-source';
import type { MusicSource, StreamHeaders } from '../../shared/sources/music-source';
import { NeteaseClient } from '../../shared/sources/netease/netease-client';
import { NeteaseSource } from '../../shared/sources/netease/netease-source';
import { MusicuClient } from '../../shared/sources/qq-music/musicu-client';
import { QqMusicSource } from '../../shared/sources/qq-music/qq-music-source';
import { SourceRegistry } from '../../shared/sources/source-registry';
import { YoutubeSource } from '../../shared/sources/youtube/youtube-source';
import { YtDlp } from '../../shared/sources/youtube/yt-dlp';
import { Ts3TestServer } from '../../testkit/ts3-server/ts3-test-server';
import { FAKE_YTDLP } from '../fakes/fake-yt-dlp';
import { type AudioCdn, startAudioCdn } from '../helpers/audio-cdn';
import { bilibiliFixture, useBilibiliApi } from '../helpers/bilibili-api';
import { kugouFixture, useKugouApi } from '../helpers/kugou-api';
import { neteaseFixture, useNeteaseApi } from '../helpers/netease-api';
import { qqFixture, useQqMusicApi } from '../helpers/qq-music-api';
import { DaemonHarness } from './harness';

/** How long an address the CDN signs stays good. */
const LIFE_MS = 3000;
const TONE_SECONDS = 12;

const NETEASE_URL_PATH = '/xeapi/song/enhance/player/url/v1';
const QQ_VKEY = 'music.vkey.GetVkey.UrlGetVkey';
const BILIBILI_PLAYURL = '/x/player/wbi/playurl';

const netease = useNeteaseApi();
const qq = useQqMusicApi();
const kugou = useKugouApi();
const bilibili = useBilibiliApi();

/** `fixture` as JSON with every audio address `audio` matches put as `address`. */
const withAddress = (fixture: unknown, audio: RegExp, address: string) =>
  JSON.parse(JSON.stringify(fixture).replace(audio, address)) as object;

/** A platform whose real adapter resolves the song, with the song and the headers its adapter sends. */
interface RealAdapter {
  platform: Platform;
  songId: string;
  source: MusicSource;
  /** Has the platform answer each resolve of the current test with the address `signed()` gives. */
  serve(signed: () => string): void;
  /** The platform's answers with an address during the current test. */
  hits(): number;
  headers: { userAgent?: RegExp; referer?: string };
}

/** The adapter's address call answered, at every resolve, with `body` naming a freshly signed address. */
const answering =
  (answer: (key: string, reply: () => Response) => void, key: string, body: (address: string) => object) =>
  (signed: () => string) =>
    answer(key, () => HttpResponse.json(body(signed())));

/** The address the fake yt-dlp prints, asked of this loopback server at each of its runs. */
let youtubeAddress: (() => string) | undefined;
let youtubeRuns = 0;
const youtubeAddresses = createServer((_request, response) => {
  youtubeRuns++;
  response.end(youtubeAddress?.() ?? '');
});

const REAL: RealAdapter[] = [
  {
    platform: 'music_a',
    songId: '1901371647',
    source: new NeteaseSource(new NeteaseClient(async () => undefined)),
    serve: answering(netease.answer, NETEASE_URL_PATH, (address) =>
      withAddress(neteaseFixture('song-url'), /https?:\/\/m\d+\.music\.126\.net\/[^"]*/g, address),
    ),
    hits: () => netease.requests.filter((r) => r.path === NETEASE_URL_PATH).length,
    headers: { referer: 'https://music.163.com/', userAgent: /^Mozilla\/5\.0/ },
  },
  {
    platform: 'music_b',
    songId: '0039MnYb0qxYhV',
    source: new QqMusicSource(new MusicuClient(async () => undefined)),
    // QQ Music names a host (`sip`) and a signed path (`purl`) apart.
    serve: answering(qq.answer, QQ_VKEY, (address) => {
      const { origin, pathname } = new URL(address);
      const answer = qqFixture('vkey') as { req_0: { data: { sip: string[]; midurlinfo: object[] } } };
      answer.req_0.data.sip = [`${origin}/`];
      for (const info of answer.req_0.data.midurlinfo) Object.assign(info, { purl: pathname.slice(1) });
      return answer;
    }),
    hits: () => qq.requests.filter((r) => `${r.req_0.module}.${r.req_0.method}` === QQ_VKEY).length,
    headers: { userAgent: /^QQMusic 14090008\(android 10\)$/ },
  },
  {
    platform: 'music_c',
    songId: 'A1B2C3D4E5F60718293A4B5C6D7E8F90',
    source: new KugouSource(new KugouClient(async () => undefined)),
    serve: answering(kugou.answer, '/v5/url', (address) =>
      withAddress(kugouFixture('song-url'), /https:\/\/webfs\.[\w.]+\.kugou\.com\/[^"]*/g, address),
    ),
    hits: () => kugou.requests.filter((r) => r.path === '/v5/url').length,
    // Kugou's CDN wants no header of its own: ffmpeg's User-Agent is passed on.
    headers: { userAgent: /^Lavf\// },
  },
  {
    platform: 'video_a',
    songId: 'BV1Ux4y1c7Mq',
    source: new BilibiliSource(new BilibiliClient(async () => undefined)),
    serve: answering(bilibili.answer, BILIBILI_PLAYURL, (address) =>
      withAddress(bilibiliFixture('playurl'), /https:\/\/[\w-]+\.bilivideo\.com\/[^"]*/g, address),
    ),
    hits: () => bilibili.requests.filter((r) => r.path === BILIBILI_PLAYURL).length,
    headers: { referer: 'https://www.bilibili.com/', userAgent: /^Mozilla\/5\.0/ },
  },
  {
    platform: 'video_b',
    songId: 'pApErB0ats1',
    source: new YoutubeSource(new YtDlp(FAKE_YTDLP)),
    serve: (signed) => {
      youtubeAddress = signed;
      youtubeRuns = 0;
    },
    hits: () => youtubeRuns,
    // The fixture's `http_headers`, which the adapter passes on.
    headers: { userAgent: /^Mozilla\/5\.0 \(Windows NT 10\.0/ },
  },
];

/** The platforms that keep a stand-in source, with the headers their adapter sends. */
const STAND_INS: { platform: Platform; headers: StreamHeaders }[] = [
  { platform: 'library_a', headers: { authorization: 'MediaBrowser Token="jellyfin"' } },
];

let server: Ts3TestServer;
let h: DaemonHarness;
let cdn: AudioCdn;
let bot: string;
const said: string[] = [];
/** Songs the stand-ins resolved, by song id, in order. */
const resolves: string[] = [];

/** A source answering as a platform's adapter does: an address signed now, with its headers. */
function standIn(platform: Platform, headers: StreamHeaders): MusicSource {
  return {
    platform,
    resolveStream: async (song) => {
      resolves.push(song.id);
      return ok({ input: { kind: 'url', url: cdn.sign(`${song.id}.mp3`, LIFE_MS), headers } });
    },
  };
}

/**
 * Answers the adapter's address call, at every resolve, with `path` on the CDN freshly signed: good
 * for `lifeMs` at the first, for `renewedLifeMs` after it.
 */
function serveSigned(adapter: RealAdapter, path: string, renewedLifeMs = LIFE_MS): void {
  let resolved = 0;
  adapter.serve(() => cdn.sign(path, resolved++ === 0 ? LIFE_MS : renewedLifeMs));
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

/** The CDN's requests for the signed addresses of `path`, in order. */
const requestsFor = (path: string) => cdn.requests.filter((r) => r.url.endsWith(`/${path}`));
/** The CDN's answers to the signed addresses of `path`, in order: `<status> <range>`. */
const answersFor = (path: string) =>
  requestsFor(path).map((r) => `${r.status} ${r.headers.range ?? 'whole'}`);

/** The song to play after each test's song, from a stand-in (so the adapter resolves only the one). */
const nextSong = (name: string) => song('library_a', `next-${name}`);

beforeAll(async () => {
  // Over https, as QQ Music's adapter plays only an https host (and the others may).
  cdn = await startAudioCdn(TONE_SECONDS, undefined, { tls: true });
  youtubeAddresses.listen(0, '127.0.0.1');
  await once(youtubeAddresses, 'listening');
  process.env.FAKE_YTDLP_AUDIO_URL_FROM = `http://127.0.0.1:${(youtubeAddresses.address() as AddressInfo).port}/`;
  server = await Ts3TestServer.start();
  h = await DaemonHarness.create(server);
  await h.startDaemon(
    new SourceRegistry([
      ...REAL.map((a) => a.source),
      ...STAND_INS.map(({ platform, headers }) => standIn(platform, headers)),
    ]),
  );
  bot = await h.addBot(server.port, { name: 'Expiry' });
  server.on('textMessage', ({ message }) => said.push(message));
  expect((await h.command(bot, 'start')).ok).toBe(true);
  // A first song warms the daemon's audio up, so the tests' addresses are fetched well within their life.
  const warmUp = song('library_a', 'warm-up');
  expect((await h.command(bot, 'playSong', { song: warmUp, requestedBy: 'alice' })).ok).toBe(true);
  await h.waitForStatus(bot, (s) => s.currentSong?.id === warmUp.id && s.elapsed > 0.5, 15_000, 'warm-up');
}, 60_000);

afterAll(async () => {
  await h?.close();
  await server?.close();
  await cdn?.close();
  youtubeAddresses.close();
  delete process.env.FAKE_YTDLP_AUDIO_URL_FROM;
});

interface Case {
  platform: Platform;
  songId: string;
  /** The CDN path its addresses sign. */
  path: string;
  /** How many times the song has been resolved (its adapter's address calls, or its stand-in's). */
  resolved(): number;
  /** The headers the fresh address must have been asked with. */
  expectHeaders(headers: Record<string, string | string[] | undefined>): void;
}

const CASES: Case[] = [
  ...REAL.map(
    (a): Case => ({
      platform: a.platform,
      songId: a.songId,
      path: `drops/${a.platform}.mp3`,
      resolved: a.hits,
      expectHeaders: (headers) => {
        if (a.headers.userAgent) expect(headers['user-agent']).toMatch(a.headers.userAgent);
        expect(headers.referer).toBe(a.headers.referer);
      },
    }),
  ),
  ...STAND_INS.map(
    ({ platform, headers: sent }): Case => ({
      platform,
      songId: `drops/${platform}`,
      path: `drops/${platform}.mp3`,
      resolved: () => resolves.filter((r) => r === `drops/${platform}`).length,
      expectHeaders: (headers) => {
        if (sent.userAgent) expect(headers['user-agent']).toBe(sent.userAgent);
        if (sent.authorization) expect(headers.authorization).toBe(sent.authorization);
      },
    }),
  ),
];

describe('signed stream addresses that expire', () => {
  it.each(CASES)(
    '$platform: a reconnect and a seek after the address expired play on from a fresh one',
    async ({ platform, songId, path, resolved, expectHeaders }) => {
      const real = REAL.find((a) => a.platform === platform);
      if (real) serveSigned(real, path);
      const playing = song(platform, songId);
      const next = nextSong(platform);
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
      const answers = answersFor(path);
      expect(resolved()).toBe(2);
      expect(answers[0]).toBe('200 bytes=0-');
      expect(answers.slice(1)).toEqual([
        expect.stringMatching(/^403 bytes=\d+-$/),
        expect.stringMatching(/^206 bytes=\d+-$/),
      ]);
      // The same range, asked of the fresh address, with the adapter's headers.
      expect(answers[2]!.slice(4)).toBe(answers[1]!.slice(4));
      const fresh = requestsFor(path).at(-1)!;
      expect(fresh.url).not.toBe(requestsFor(path)[0]!.url);
      expectHeaders(fresh.headers);

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
      expect(resolved()).toBe(3);
      expect(answersFor(path).slice(3, 4)).toEqual([expect.stringMatching(/^403 /)]);
      expect(answersFor(path).at(-1)).toMatch(/^20[06] /);
      expectHeaders(requestsFor(path).at(-1)!.headers);

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
    const netease = REAL[0]!;
    const path = 'drops/refused-again.mp3';
    // NetEase answers an address that has already expired at every resolve after the first.
    serveSigned(netease, path, -1);
    const refused = song('music_a', netease.songId);
    const next = nextSong('refused');
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
    expect(netease.hits()).toBe(2);
    const [first, ...reconnects] = answersFor(path);
    expect(first).toBe('200 bytes=0-');
    expect(reconnects.length).toBeGreaterThanOrEqual(2);
    expect(reconnects.every((answer) => answer.startsWith('403 '))).toBe(true);
  }, 60_000);
});
