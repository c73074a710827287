/**
 * Platform streams as a connected bot plays them: the daemon's stream relay fetches each song from a
 * loopback CDN stand-in with the headers its source resolved. Stand-in sources answer as the adapters
 * do (NetEase's and Bilibili's Referer, QQ Music's and YouTube's User-Agent, Jellyfin's token header;
 * each adapter's own `*-source.test.ts` pins what it sends). While each plays, no
 * process below this one shows a header value on its command line, as `ps` would show it to any local
 * user; a seek still
 * plays. A stream that stalls mid-file ends its track with the localized note in the channel, and the
 * next song plays; so does a stream its CDN refuses (403) or no longer has (404), each said by its kind.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Platform } from '../../shared/domain/constants';
import type { Song } from '../../shared/domain/schemas';
import { receipts } from '../../shared/receipts';
import { ok } from '../../shared/result';
import type { MusicSource, StreamHeaders } from '../../shared/sources/music-source';
import { SourceRegistry } from '../../shared/sources/source-registry';
import { DECODER_NAME } from '../../testkit/audio-signals';
import { Ts3TestServer } from '../../testkit/ts3-server/ts3-test-server';
import { descendantCommandLines } from '../hardening/child-processes';
import { type AudioCdn, startAudioCdn } from '../helpers/audio-cdn';
import { DaemonHarness } from './harness';

/** Each platform's kind of stream, with a header value it must keep off every command line. */
const STREAMS: { platform: Platform; headers: StreamHeaders; secret: string }[] = [
  {
    platform: 'music_a',
    headers: { referer: 'https://music.163.com/', userAgent: 'Mozilla/5.0 neteaseAgent1' },
    secret: 'neteaseAgent1',
  },
  {
    platform: 'music_b',
    headers: { userAgent: 'QQMusic 14090008(android 10) qqAgent2' },
    secret: 'qqAgent2',
  },
  {
    platform: 'video_a',
    headers: { referer: 'https://www.bilibili.com/bilibiliReferer3', userAgent: 'Mozilla/5.0' },
    secret: 'bilibiliReferer3',
  },
  {
    platform: 'library_a',
    headers: { authorization: 'MediaBrowser Token="jellyfinSecret4"' },
    secret: 'jellyfinSecret4',
  },
  { platform: 'video_b', headers: { userAgent: 'Mozilla/5.0 youtubeAgent5' }, secret: 'youtubeAgent5' },
];
/** The stall limit handed down to the daemon, instead of STREAM_STALL_MS. */
const STALL_MS = 1500;

let server: Ts3TestServer;
let h: DaemonHarness;
let cdn: AudioCdn;
let bot: string;
const said: string[] = [];

/** A source answering as a platform's adapter does: the song's file on the CDN, with its headers. */
function standIn(platform: Platform, headers: StreamHeaders | undefined): MusicSource {
  return {
    platform,
    resolveStream: async (song) =>
      ok({ input: { kind: 'url', url: `${cdn.baseUrl}${song.id}.mp3`, ...(headers && { headers }) } }),
  };
}

const song = (platform: Platform, id: string): Song => ({
  id,
  name: `${platform} ${id}`,
  artist: 'Tone',
  album: '',
  duration: 20,
  coverUrl: '',
  platform,
});

beforeAll(async () => {
  cdn = await startAudioCdn(20);
  server = await Ts3TestServer.start();
  h = await DaemonHarness.create(server);
  const sources = new SourceRegistry([
    ...STREAMS.map((s) => standIn(s.platform, s.headers)),
    standIn('music_c', undefined),
  ]);
  await h.startDaemon(sources, { streamStallMs: STALL_MS });
  bot = await h.addBot(server.port, { name: 'Streamer' });
  server.on('textMessage', ({ message }) => said.push(message));
  expect((await h.command(bot, 'start')).ok).toBe(true);
}, 60_000);

afterAll(async () => {
  await h?.close();
  await server?.close();
  await cdn?.close();
});

describe('platform streams on a connected bot', () => {
  it('keeps every token and header off the command lines while each platform plays, and seeks', async () => {
    for (const { platform, headers, secret } of STREAMS) {
      const playing = song(platform, `${platform}-song`);
      expect((await h.command(bot, 'playSong', { song: playing, requestedBy: 'alice' })).ok).toBe(true);
      await h.waitForStatus(
        bot,
        (s) => s.currentSong?.id === playing.id && s.playing && s.elapsed > 0.5,
        15_000,
        `${platform} playing`,
      );
      const lines = descendantCommandLines();
      expect(lines.some((line) => line.includes(DECODER_NAME))).toBe(true);
      expect(lines.filter((line) => line.includes(secret))).toEqual([]);
      expect(cdn.requests.at(-1)?.headers).toMatchObject(
        Object.fromEntries(
          Object.entries(headers).map(([name, value]) => [name === 'userAgent' ? 'user-agent' : name, value]),
        ),
      );
    }
    expect((await h.command(bot, 'seek', { position: 12 })).ok).toBe(true);
    await h.waitForStatus(bot, (s) => s.elapsed > 12.5, 10_000, 'playing on after the seek');
  }, 90_000);

  it('ends a stream that stalls mid-file with a note in the channel, and plays the next song', async () => {
    const stalling = song('music_c', 'stalls/half');
    const next = song('music_c', 'whole');
    expect((await h.command(bot, 'playSong', { song: stalling, requestedBy: 'alice' })).ok).toBe(true);
    expect((await h.command(bot, 'addSong', { song: next, requestedBy: 'alice' })).ok).toBe(true);
    // Half of a 20 s file, then nothing: the track ends STALL_MS after the bot has played that half.
    await h.waitFor(
      () => said.includes(receipts.streamStalled(stalling, STALL_MS / 1000)),
      30_000,
      `the stall note (said ${JSON.stringify(said)})`,
    );
    const status = await h.waitForStatus(
      bot,
      (s) => s.currentSong?.id === next.id && s.playing && s.elapsed > 0.5,
      15_000,
      'the next song playing',
    );
    expect(status.connected).toBe(true);
  }, 60_000);

  it('says a stream its CDN refuses or no longer has by its kind, and plays the next song', async () => {
    const refused = song('music_c', 'status/403/song');
    const gone = song('music_c', 'status/404/song');
    const next = song('music_c', 'after');
    await h.command(bot, 'clear');
    for (const queued of [refused, gone, next])
      expect((await h.command(bot, 'addSong', { song: queued, requestedBy: 'alice' })).ok).toBe(true);
    expect((await h.command(bot, 'playAt', { index: 0 })).ok).toBe(true);
    // Each decoder fails after it started, so the bot says so in its channel rather than in a reply.
    const wanted = [receipts.playbackSourceRefused(refused), receipts.playbackSourceNotFound(gone)];
    await h.waitFor(
      () => wanted.every((line) => said.includes(line)),
      30_000,
      `both notes (said ${JSON.stringify(said)})`,
    );
    const status = await h.waitForStatus(
      bot,
      (s) => s.currentSong?.id === next.id && s.playing,
      15_000,
      'the next song playing',
    );
    expect(status.connected).toBe(true);
  }, 60_000);
});
