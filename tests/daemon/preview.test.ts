/**
 * Preview clips: a VIP song from a source that can only serve a preview plays as long as the preview,
 * and BotStatus shows the preview's length. The platform behind the source cannot be reached here, so
 * a small test source stands in for its adapter: it resolves VIP songs to a local tone file of the
 * preview's length with `previewSeconds` set, as the MusicSource contract describes a preview.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Song } from '../../shared/domain/schemas';
import { err, type Result } from '../../shared/result';
import { LocalSource } from '../../shared/sources/local/local-source';
import type { MusicSource, ResolvedStream, StreamRequest } from '../../shared/sources/music-source';
import { SourceRegistry } from '../../shared/sources/source-registry';
import { Ts3TestServer } from '../../testkit/ts3-server/ts3-test-server';
import { DaemonHarness } from './harness';
import { frequencyOf, heard, samplesBetween } from './heard';

const PREVIEW_SECONDS = 3;
const FULL_SECONDS = 30;

/** `music_a` as a VIP-restricted catalog: VIP songs resolve to the preview clip, others to the full tone. */
class PreviewSource implements MusicSource {
  readonly platform = 'music_a' as const;

  constructor(
    private readonly local: LocalSource,
    private readonly uploads: { preview: string; full: string },
  ) {}

  async resolveStream(song: StreamRequest): Promise<Result<ResolvedStream>> {
    const id = song.vip ? this.uploads.preview : this.uploads.full;
    const stream = await this.local.resolveStream({ id, platform: 'local' });
    if (!stream.ok) return err(stream.error);
    return song.vip ? { ok: true, value: { ...stream.value, previewSeconds: PREVIEW_SECONDS } } : stream;
  }
}

describe('a preview clip', () => {
  let server: Ts3TestServer;
  let h: DaemonHarness;
  let bot: string;
  let after: Song;
  const catalogSong = (vip: boolean): Song => ({
    id: vip ? 'vip-1' : 'free-1',
    name: vip ? 'VIP song' : 'Free song',
    artist: 'tests',
    album: 'catalog',
    duration: FULL_SECONDS,
    coverUrl: '',
    platform: 'music_a',
    vip,
  });

  beforeAll(async () => {
    server = await Ts3TestServer.start();
    h = await DaemonHarness.create(server);
    const preview = await h.toneSong('preview', [{ frequencyHz: 440, seconds: PREVIEW_SECONDS }]);
    const full = await h.toneSong('full', [{ frequencyHz: 440, seconds: FULL_SECONDS }]);
    after = await h.toneSong('after', [{ frequencyHz: 880, seconds: 10 }]);
    const local = new LocalSource(h.db, h.dataDir);
    await h.startDaemon(
      new SourceRegistry([local, new PreviewSource(local, { preview: preview.id, full: full.id })]),
    );
    bot = await h.addBot(server.port, { name: 'Previewer' });
    await h.command(bot, 'start');
  });

  afterAll(async () => {
    await h?.close();
    await server?.close();
  });

  it('reports the preview length, clamps elapsed to it and ends there', async () => {
    await h.command(bot, 'playSong', { song: catalogSong(true), requestedBy: 'alice' });
    await h.command(bot, 'addSong', { song: after, requestedBy: 'alice' });
    const first = await h.waitForStatus(bot, (s) => s.playing, 4000, 'the preview plays');
    const startedAt = performance.now();
    expect(first).toMatchObject({ currentSong: { id: 'vip-1' }, effectiveDuration: PREVIEW_SECONDS });
    let longestElapsed = 0;
    const next = await h.waitForStatus(
      bot,
      (s) => {
        if (s.currentSong?.id === 'vip-1') longestElapsed = Math.max(longestElapsed, s.elapsed);
        return s.currentSong?.id === after.id;
      },
      PREVIEW_SECONDS * 1000 + 4000,
      'the next song after the preview',
    );
    const playedMs = performance.now() - startedAt;
    expect(longestElapsed).toBeLessThanOrEqual(PREVIEW_SECONDS);
    expect(longestElapsed).toBeGreaterThan(PREVIEW_SECONDS - 0.5);
    // Not the song's 30 s: the preview's 3 s, within what polling and the track change add.
    expect(playedMs).toBeGreaterThan((PREVIEW_SECONDS - 0.6) * 1000);
    expect(playedMs).toBeLessThan((PREVIEW_SECONDS + 1.5) * 1000);
    expect(next.effectiveDuration).toBe(10);
    await h.waitForStatus(bot, (s) => s.elapsed > 0.8, 3000, 'the next song heard');
    const sound = heard(server, server.clientByName('Previewer')?.id ?? -1);
    const now = performance.now();
    expect(Math.abs(frequencyOf(samplesBetween(sound, now - 400, now)) - 880)).toBeLessThan(5);
  }, 20_000);

  it('clamps a seek past the preview to its end', async () => {
    await h.command(bot, 'playSong', { song: catalogSong(true), requestedBy: 'alice' });
    await h.waitForStatus(bot, (s) => s.playing, 4000, 'the preview plays');
    const seek = await h.command(bot, 'seek', { position: 20 });
    expect(seek.data).toEqual({ seekOffset: PREVIEW_SECONDS });
    await h.waitForStatus(bot, (s) => s.currentSong === null, 4000, 'the preview ended');
  });

  it('shows the full duration for a song that is not VIP', async () => {
    await h.command(bot, 'playSong', { song: catalogSong(false), requestedBy: 'alice' });
    const status = await h.waitForStatus(bot, (s) => s.playing, 4000, 'the full song plays');
    expect(status).toMatchObject({ currentSong: { id: 'free-1' }, effectiveDuration: FULL_SECONDS });
    await h.command(bot, 'stopPlayback');
  });
});
