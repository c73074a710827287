/**
 * Playback end to end: real ffmpeg decodes tone files, the daemon's bot streams them to the TS3 test
 * server, and the server's decoded audio is checked for which tone arrived when.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { playHistory } from '../../shared/db/schema';
import type { Song } from '../../shared/domain/schemas';
import { receipts } from '../../shared/receipts';
import { toDb } from '../../testkit/audio-signals';
import { Ts3TestServer } from '../../testkit/ts3-server/ts3-test-server';
import { DaemonHarness } from './harness';
import { frequencyOf, heard, samplesBetween, samplesOfPackets, soundingLevel } from './heard';

const near = (hz: number, target: number) => Math.abs(hz - target) < 5;
const SEQUENCE_TONES = [
  { frequencyHz: 440, seconds: 2 },
  { frequencyHz: 660, seconds: 2 },
  { frequencyHz: 880, seconds: 2 },
];

describe('a bot playing local files to the TS3 test server', () => {
  let server: Ts3TestServer;
  let h: DaemonHarness;
  let bot: string;
  let sequence: Song;
  /**
   * The sequence as a new upload. The upload janitor deletes a played upload no queue holds 30 s after
   * the play, so a test that comes later on a slow machine plays its own copy.
   */
  const freshSequence = () => h.toneSong('sequence', SEQUENCE_TONES);
  const clientId = () => server.clientByName('Player')?.id ?? -1;

  beforeAll(async () => {
    server = await Ts3TestServer.start();
    h = await DaemonHarness.create(server);
    await h.startDaemon();
    bot = await h.addBot(server.port, {
      name: 'Player',
      defaultChannel: 'Music',
      channelPassword: 'letmein',
    });
    sequence = await freshSequence();
  });

  afterAll(async () => {
    await h?.close();
    await server?.close();
  });

  it('refuses audio-starting commands while disconnected, leaving the queue alone', async () => {
    const reply = await h.command(bot, 'addSong', { song: sequence, requestedBy: 'alice' });
    expect(reply).toMatchObject({
      ok: false,
      status: 409,
      message: 'The bot is not connected to the voice server.',
    });
    expect((await h.status(bot)).queueSize).toBe(0);
    expect((await h.command(bot, 'volume', { volume: 80 })).status).toBe(200);
  });

  it('starts with a new identity that is stored and reused, in the default channel', async () => {
    const started = await h.command(bot, 'start');
    expect(started).toMatchObject({ ok: true, status: 200, data: { connected: true } });
    const musicId = [...server.channels.values()].find((c) => c.name === 'Music')?.id;
    expect(server.clientByName('Player')?.channelId).toBe(musicId);
    await h.waitFor(async () => Boolean((await h.botRow(bot))?.identity), 2000, 'identity stored');
    const uid = server.clientByName('Player')?.uid;
    expect((await h.command(bot, 'stop')).data).toMatchObject({ connected: false });
    await h.command(bot, 'start');
    expect(server.clientByName('Player')?.uid).toBe(uid);
  });

  it('plays a tone sequence end to end; each tone is heard at its time; history is written', async () => {
    const startedAt = performance.now();
    const reply = await h.command(bot, 'addSong', { song: sequence, requestedBy: 'alice' });
    expect(reply).toMatchObject({ ok: true, message: 'Now playing: sequence - tests' });
    const status = await h.waitForStatus(bot, (s) => s.currentSong === null, 12_000, 'end of the sequence');
    expect(status.playing).toBe(false);
    const sound = heard(server, clientId());
    const first = sound.arrivals.find((t) => t >= startedAt) ?? 0;
    for (const [i, hz] of [440, 660, 880].entries()) {
      const from = first + i * 2000 + 400;
      expect(frequencyOf(samplesBetween(sound, from, from + 1200))).toSatisfy((f: number) => near(f, hz));
    }
    // The switch to 660 Hz arrives 2 s after the first packet, within a generous margin.
    const switchAt = sound.arrivals.findIndex((t, i) => {
      if (t < first + 1000) return false;
      return near(frequencyOf(samplesOfPackets(sound, i, i + 10)), 660);
    });
    expect(Math.abs((sound.arrivals[switchAt] ?? 0) - first - 2000)).toBeLessThan(400);
    const history = await h.db.select().from(playHistory).where(eq(playHistory.botId, bot));
    expect(history.at(-1)).toMatchObject({ songId: sequence.id, requestedBy: 'alice', platform: 'local' });
  });

  it('seeks to 3 s and the server hears the tone that starts there', async () => {
    await h.command(bot, 'playSong', { song: await freshSequence(), requestedBy: 'alice' });
    await h.waitForStatus(bot, (s) => s.elapsed > 0.3, 5000, 'playback');
    const seek = await h.command(bot, 'seek', { position: 3 });
    expect(seek).toMatchObject({ ok: true, data: { seekOffset: 3 } });
    const seekedAt = performance.now();
    const status = await h.waitForStatus(bot, (s) => s.elapsed > 3.9, 5000, 'after the seek');
    expect(status.elapsed).toBeLessThan(5);
    const sound = heard(server, clientId());
    expect(frequencyOf(samplesBetween(sound, seekedAt + 250, seekedAt + 750))).toSatisfy((f: number) =>
      near(f, 660),
    );
    await h.waitForStatus(bot, (s) => s.elapsed > 4.6, 5000, 'the third tone');
    const late = heard(server, clientId());
    expect(frequencyOf(samplesBetween(late, performance.now() - 400, performance.now()))).toSatisfy(
      (f: number) => near(f, 880),
    );
    await h.command(bot, 'stopPlayback');
  });

  it('gives volume 50 the square-law amplitude (−12.04 dB) within 1 dB', async () => {
    const tone = await h.toneSong('loud', [{ frequencyHz: 440, seconds: 3, amplitude: 0.5 }]);
    // Measured against the tone's own level: normalization would move it (tests/daemon/loudness.test.ts).
    await h.command(bot, 'loudness', { enabled: false });
    expect((await h.command(bot, 'volume', { volume: 50 })).message).toBe('Volume set to 50%.');
    await h.command(bot, 'playSong', { song: tone, requestedBy: 'alice' });
    await h.waitForStatus(bot, (s) => s.elapsed > 2, 6000, 'two seconds of the tone');
    const sound = heard(server, clientId());
    const level = soundingLevel(samplesBetween(sound, performance.now() - 1200, performance.now() - 200));
    const expected = (0.5 * 0.25) / Math.SQRT2;
    expect(Math.abs(toDb(level / expected))).toBeLessThan(1);
    expect((await h.botRow(bot))?.volume).toBe(50);
    await h.command(bot, 'volume', { volume: 100 });
    await h.command(bot, 'loudness', { enabled: true });
    await h.command(bot, 'stopPlayback');
  });

  it('pauses, resumes, skips forward and back across a three-song queue in every mode', async () => {
    const songs = await Promise.all(
      [440, 660, 880].map((hz) => h.toneSong(`tone${hz}`, [{ frequencyHz: hz, seconds: 6 }])),
    );
    const frequencyOfSong = (id: string | undefined) => [440, 660, 880][songs.findIndex((s) => s.id === id)];
    for (const mode of ['seq', 'loop', 'random', 'rloop'] as const) {
      expect((await h.command(bot, 'mode', { mode })).ok).toBe(true);
      const loaded = await h.command(bot, 'loadSongs', {
        songs,
        mode: 'replace',
        requestedBy: 'alice',
        label: mode,
      });
      expect(loaded.ok).toBe(true);
      let status = await h.waitForStatus(bot, (s) => s.playing && s.elapsed > 0.2, 4000, `${mode} playing`);
      const first = status.currentSong?.id;
      expect(await h.command(bot, 'pause')).toMatchObject({ ok: true, message: 'Paused.' });
      status = await h.status(bot);
      expect([status.playing, status.paused]).toEqual([false, true]);
      const endsBefore = server.voiceStats(clientId())?.endPackets ?? 0;
      await h.waitFor(
        () => (server.voiceStats(clientId())?.endPackets ?? 0) > endsBefore,
        2000,
        'pause ends speech',
      );
      expect((await h.command(bot, 'resume')).message).toBe('Resumed.');
      expect((await h.status(bot)).playing).toBe(true);

      expect((await h.command(bot, 'next')).ok).toBe(true);
      status = await h.waitForStatus(bot, (s) => s.elapsed > 0.6, 4000, `${mode} after next`);
      const second = status.currentSong?.id;
      expect(second).not.toBe(first);
      if (mode === 'seq' || mode === 'loop') expect(second).toBe(songs[1]?.id);
      const sound = heard(server, clientId());
      expect(frequencyOf(samplesBetween(sound, performance.now() - 400, performance.now()))).toSatisfy(
        (f: number) => near(f, frequencyOfSong(second) ?? 0),
      );

      expect((await h.command(bot, 'prev')).ok).toBe(true);
      status = await h.waitForStatus(bot, (s) => s.playing, 4000, `${mode} after prev`);
      expect(status.currentSong?.id).toBe(first);
    }
    await h.command(bot, 'mode', { mode: 'seq' });
    expect((await h.botRow(bot))?.playMode).toBe('seq');
  });

  it('tells the channel a corrupt file could not play and moves on', async () => {
    const corrupt = await h.toneSong(
      'corrupt',
      [{ frequencyHz: 1, seconds: 1 }],
      Buffer.from('not audio at all'),
    );
    const good = await h.toneSong('good', [{ frequencyHz: 550, seconds: 3 }]);
    const said = new Promise<string>((resolve) => {
      server.on('textMessage', (m) => {
        if (m.message.startsWith('Could not play corrupt')) resolve(m.message);
      });
    });
    await h.command(bot, 'clear');
    await h.command(bot, 'playSong', { song: corrupt, requestedBy: 'alice' });
    await h.command(bot, 'addSong', { song: good, requestedBy: 'alice' });
    // Its kind, in words a listener understands; ffmpeg's own words stay in the log.
    expect(await said).toBe(receipts.playbackFormatUnsupported(corrupt));
    const status = await h.waitForStatus(bot, (s) => s.currentSong?.id === good.id, 5000, 'the next song');
    expect(status.playing).toBe(true);
    await h.command(bot, 'clear');
  });

  it('answers with a clear message when ffmpeg is missing, moves on, and stops after 3 failures', async () => {
    const saved = h.ffmpeg.configuredPath;
    h.ffmpeg.configuredPath = '/nonexistent/ffmpeg';
    try {
      const songs = await Promise.all(
        [1, 2, 3, 4].map((n) => h.toneSong(`t${n}`, [{ frequencyHz: 300, seconds: 1 }])),
      );
      const reply = await h.command(bot, 'loadSongs', {
        songs,
        mode: 'replace',
        requestedBy: 'bob',
        label: 'list',
      });
      expect(reply).toMatchObject({ ok: false, status: 200 });
      expect(reply.phrases?.map((phrase) => phrase.code)).toEqual([
        'playbackDecoderMissing',
        'playbackStopped',
      ]);
      expect(reply.message).toBe(
        `${receipts.playbackDecoderMissing(songs[0]!)} ${receipts.playbackStopped()}`,
      );
      const status = await h.status(bot);
      expect(status.playing).toBe(false);
      expect(status.queueSize).toBe(4);
    } finally {
      h.ffmpeg.configuredPath = saved;
    }
  });

  it('says a source without an adapter is not available yet', async () => {
    const song = { ...sequence, id: 'x1', platform: 'music_c' as const };
    const reply = await h.command(bot, 'playSong', { song, requestedBy: 'alice' });
    expect(reply).toMatchObject({ ok: false, status: 200 });
    expect(reply.message).toContain('source music_c is not available yet');
  });

  it('checks the play-at index before stopping playback', async () => {
    await h.command(bot, 'playSong', { song: await freshSequence(), requestedBy: 'alice' });
    const reply = await h.command(bot, 'playAt', { index: 5 });
    expect(reply).toMatchObject({
      ok: false,
      status: 400,
      message: 'There is no such song in the queue (it has 1).',
    });
    expect((await h.status(bot)).playing).toBe(true);
  });

  it('stop sends end-of-speech, disconnects and clears the player state', async () => {
    await h.waitForStatus(bot, (s) => s.elapsed > 0.3, 4000, 'playback');
    const id = clientId();
    const endsBefore = server.voiceStats(id)?.endPackets ?? 0;
    const reply = await h.command(bot, 'stop');
    expect(reply).toMatchObject({
      ok: true,
      message: 'Disconnected.',
      data: { connected: false, queueSize: 0 },
    });
    expect(server.voiceStats(id)?.endPackets).toBeGreaterThan(endsBefore);
    expect((await h.command(bot, 'queue')).data).toMatchObject({ queue: [] });
  });
});
