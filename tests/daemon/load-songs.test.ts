/**
 * SPEC Player rule 7 on the `loadSongs` op, with a connected bot on the TS3 test server: replace stops
 * what plays and starts from the first song (a random one in the random modes), skips up to 20 songs
 * that cannot be resolved, keeps the old queue (stopped) when nothing plays or the list is empty; append adds
 * to the end without interrupting.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Song } from '../../shared/domain/schemas';
import { receipts } from '../../shared/receipts';
import { Ts3TestServer } from '../../testkit/ts3-server/ts3-test-server';
import { DaemonHarness } from './harness';
import { frequencyOf, heard, samplesBetween } from './heard';

/** A song whose upload does not exist, so the local source cannot resolve it. */
const missing = (i: number): Song => ({
  id: randomUUID(),
  name: `Missing ${i}`,
  artist: 'tests',
  album: 'gone',
  duration: 10,
  coverUrl: '',
  platform: 'local',
});
const missingSongs = (count: number) => Array.from({ length: count }, (_, i) => missing(i));

describe('loading a list of songs into a bot', () => {
  let server: Ts3TestServer;
  let h: DaemonHarness;
  let bot: string;
  let playing: Song;
  let good: Song[];
  const ids = async () => (await h.queue(bot)).map((s) => s.id);
  const load = (songs: Song[], mode: 'replace' | 'append', extra: { totalCount?: number } = {}) =>
    h.command(bot, 'loadSongs', { songs, mode, requestedBy: 'alice', label: 'list', ...extra });
  /** Replaces whatever plays with `playing` alone, so each case starts from a known queue. */
  const reset = async () => {
    await h.command(bot, 'mode', { mode: 'seq' });
    await h.command(bot, 'playSong', { song: playing, requestedBy: 'alice' });
    await h.waitForStatus(bot, (s) => s.playing && s.elapsed > 0.2, 5000, 'the reset song plays');
  };

  beforeAll(async () => {
    server = await Ts3TestServer.start();
    h = await DaemonHarness.create(server);
    await h.startDaemon();
    bot = await h.addBot(server.port, { name: 'Loader' });
    playing = await h.toneSong('playing', [{ frequencyHz: 300, seconds: 60 }]);
    good = await Promise.all(
      [440, 550, 660, 770, 880].map((hz) => h.toneSong(`good${hz}`, [{ frequencyHz: hz, seconds: 30 }])),
    );
    await h.command(bot, 'start');
  });

  afterAll(async () => {
    await h?.close();
    await server?.close();
  });

  it('replace stops what plays and starts from the first song; the server hears it', async () => {
    await reset();
    const reply = await load(good, 'replace');
    const loadedAt = performance.now();
    expect(reply).toMatchObject({
      ok: true,
      message: `${receipts.loaded('list', 5)} ${receipts.nowPlaying(good[0]!)}`,
    });
    expect(await ids()).toEqual(good.map((s) => s.id));
    const status = await h.waitForStatus(bot, (s) => s.elapsed > 1, 5000, 'the first song plays');
    expect(status.currentSong).toMatchObject({ id: good[0]!.id, requestedBy: 'alice' });
    const clientId = server.clientByName('Loader')?.id ?? -1;
    const sound = samplesBetween(heard(server, clientId), loadedAt + 300, performance.now());
    expect(Math.abs(frequencyOf(sound) - 440)).toBeLessThan(5);
  });

  it('skips 3 and 19 songs that cannot be resolved and plays the next (20 attempts in all)', async () => {
    for (const bad of [3, 19]) {
      await reset();
      const songs = [...missingSongs(bad), good[1]!];
      const reply = await load(songs, 'replace');
      expect(reply.ok).toBe(true);
      expect(reply.message).toContain(receipts.nowPlaying(good[1]!));
      const status = await h.status(bot);
      expect(status).toMatchObject({ playing: true, queueSize: bad + 1 });
      expect(status.currentSong?.id).toBe(good[1]!.id);
    }
  });

  it('gives up after 20 songs that cannot be resolved: stopped, previous queue kept', async () => {
    for (const bad of [20, 21]) {
      await reset();
      const before = await ids();
      const reply = await load([...missingSongs(bad), good[2]!], 'replace');
      expect(reply).toMatchObject({ ok: false, message: receipts.nothingPlayable('list') });
      expect(await ids()).toEqual(before);
      // Replace stopped the playback before it looked for a song that plays.
      expect(await h.status(bot)).toMatchObject({ playing: false, currentSong: null });
    }
  });

  it('stops the playback on an empty load and keeps the queue; an empty append changes nothing', async () => {
    await reset();
    const before = await ids();
    const reply = await load([], 'replace');
    expect(reply).toMatchObject({ ok: false, message: receipts.emptyList('list') });
    expect(await ids()).toEqual(before);
    expect(await h.status(bot)).toMatchObject({ playing: false, currentSong: null });

    await reset();
    const appended = await load([], 'append');
    expect(appended).toMatchObject({ ok: false, message: receipts.emptyList('list') });
    expect(await ids()).toEqual(before);
    expect(await h.status(bot)).toMatchObject({ playing: true, currentSong: { id: playing.id } });
  });

  it('starts from a random song in random and rloop modes, always the first in seq and loop', async () => {
    const startsIn = async (mode: 'seq' | 'loop' | 'random' | 'rloop', loads: number) => {
      await h.command(bot, 'mode', { mode });
      const starts = new Set<number>();
      for (let i = 0; i < loads; i++) {
        await load(good, 'replace');
        const current = (await h.status(bot)).currentSong?.id;
        starts.add(good.findIndex((s) => s.id === current));
      }
      return starts;
    };
    expect(await startsIn('seq', 3)).toEqual(new Set([0]));
    expect(await startsIn('loop', 3)).toEqual(new Set([0]));
    // Eight loads of five songs all starting at the first has a chance of 5^-8 (about 3 in a million).
    for (const mode of ['random', 'rloop'] as const) {
      const starts = await startsIn(mode, 8);
      expect(starts.size).toBeGreaterThan(1);
      expect([...starts].every((i) => i >= 0 && i < good.length)).toBe(true);
    }
    await h.command(bot, 'mode', { mode: 'seq' });
  });

  it('reports "loaded X of Y" when the source filtered the list', async () => {
    await reset();
    const reply = await load(good.slice(0, 3), 'replace', { totalCount: 7 });
    expect(reply.message).toBe(`${receipts.loadedOf('list', 3, 7)} ${receipts.nowPlaying(good[0]!)}`);
  });

  it('append adds to the end without interrupting the song that plays', async () => {
    await reset();
    const before = await h.waitForStatus(bot, (s) => s.elapsed > 1, 5000, 'a second of the song');
    const reply = await load(good.slice(0, 2), 'append');
    expect(reply).toMatchObject({ ok: true, message: receipts.loaded('list', 2) });
    expect(await ids()).toEqual([playing.id, good[0]!.id, good[1]!.id]);
    const after = await h.status(bot);
    expect(after.currentSong?.id).toBe(playing.id);
    expect(after.elapsed).toBeGreaterThanOrEqual(before.elapsed);
    const clientId = server.clientByName('Loader')?.id ?? -1;
    const now = performance.now();
    expect(Math.abs(frequencyOf(samplesBetween(heard(server, clientId), now - 500, now)) - 300)).toBeLessThan(
      5,
    );
  });

  it('append to an idle bot plays the first appended song', async () => {
    await h.command(bot, 'clear');
    const reply = await load(good.slice(3), 'append');
    expect(reply.ok).toBe(true);
    expect((await h.status(bot)).currentSong?.id).toBe(good[3]!.id);
  });
});
