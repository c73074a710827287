/**
 * Autoplay end to end on uploads (the fallback of every platform without related songs; each
 * platform's own related songs are tested beside its adapter): with it on, the queue running out in
 * order goes on with another upload marked as autoplay's, one at a time, never one of the recent
 * plays; with none left the bot stops and says so in its channel. Off, the bot stops at the end.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTOPLAY_LABEL } from '../../shared/domain/constants';
import type { Song } from '../../shared/domain/schemas';
import { Ts3TestServer } from '../../testkit/ts3-server/ts3-test-server';
import { DaemonHarness } from './harness';

describe('autoplay', () => {
  let server: Ts3TestServer;
  let h: DaemonHarness;
  let bot: string;
  let first: Song;
  let second: Song;
  const said: string[] = [];

  beforeAll(async () => {
    server = await Ts3TestServer.start();
    h = await DaemonHarness.create(server);
    // Uploads kept as a library: otherwise a played upload is deleted, and autoplay offers none.
    await h.setSettings({ keepUploads: true });
    await h.startDaemon();
    bot = await h.addBot(server.port, { name: 'Auto' });
    server.on('textMessage', ({ message }) => said.push(message));
    await h.command(bot, 'start');
    first = await h.toneSong('first', [{ frequencyHz: 440, seconds: 1.5 }]);
    second = await h.toneSong('second', [{ frequencyHz: 660, seconds: 1.5 }]);
  }, 60_000);

  afterAll(async () => {
    await h?.close();
    await server?.close();
  });

  it('is off by default: the bot stops when the queue runs out', async () => {
    expect((await h.status(bot)).autoplay).toBe('off');
    await h.command(bot, 'playSong', { song: first, requestedBy: 'alice' });
    await h.waitForStatus(bot, (s) => s.currentSong?.id === first.id, 6000, 'the first plays');
    const ended = await h.waitForStatus(bot, (s) => !s.playing, 8000, 'the queue ends');
    expect(ended.queueSize).toBe(1);
  }, 20_000);

  it('goes on with another upload, marked as its own, and stops saying so when none is new', async () => {
    const on = await h.command(bot, 'autoplay', { mode: 'related' });
    expect(on).toMatchObject({
      ok: true,
      message: 'Autoplay is on: when the queue runs out, songs like the last one follow.',
    });
    expect((await h.botRow(bot))?.autoplay).toBe('related');
    await h.command(bot, 'clear');
    await h.command(bot, 'playSong', { song: second, requestedBy: 'alice' });
    const next = await h
      .waitForStatus(
        bot,
        (s) => s.currentSong !== null && s.currentSong.id !== second.id,
        4000,
        'autoplay goes on',
      )
      .catch(() => undefined);
    // Both uploads are among the recent plays: autoplay has nothing new and says so.
    expect(next).toBeUndefined();
    await h.waitFor(() => said.some((m) => m.startsWith('Autoplay found nothing new')), 8000, 'the note');
    expect((await h.status(bot)).playing).toBe(false);

    const third = await h.toneSong('third', [{ frequencyHz: 880, seconds: 1.5 }]);
    await h.command(bot, 'playSong', { song: first, requestedBy: 'bob' });
    const auto = await h.waitForStatus(
      bot,
      (s) => s.currentSong?.id === third.id,
      10_000,
      'the one new upload follows',
    );
    expect(auto.currentSong?.requestedBy).toBe(AUTOPLAY_LABEL);
    // A song someone asks for meanwhile plays before any further autoplay song.
    await h.command(bot, 'addSong', { song: second, requestedBy: 'carol' });
    const asked = await h.waitForStatus(bot, (s) => s.currentSong?.id === second.id, 8000, "carol's song");
    expect(asked.currentSong?.requestedBy).toBe('carol');
  }, 60_000);

  it('offers no upload while played uploads are deleted (keepUploads off): it would use them up', async () => {
    await h.setSettings({ keepUploads: false });
    await h.command(bot, 'stopPlayback');
    await h.command(bot, 'clear');
    const fresh = await h.toneSong('fresh', [{ frequencyHz: 550, seconds: 1.5 }]);
    const notes = said.length;
    await h.command(bot, 'playSong', { song: fresh, requestedBy: 'dan' });
    await h.waitFor(
      () => said.slice(notes).some((m) => m.startsWith('Autoplay found nothing new')),
      10_000,
      'the note',
    );
    expect((await h.status(bot)).currentSong?.requestedBy).not.toBe(AUTOPLAY_LABEL);
  }, 30_000);
});
