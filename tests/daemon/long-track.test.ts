/**
 * A three-hour platform stream on a connected bot, without three hours of waiting: seeks to 1:00:00,
 * 2:30:00 and 2:59:50 each play on from there with the elapsed time the position plus the audio sent
 * since (as the TS3 test server counts the packets it heard), within 0.5 s; from 2:59:50 the song plays
 * its last ten seconds, as many as the file has left, and the next song follows. The file (a mono 440 Hz
 * sine at 8 kb/s, about 10 MB) is made by ffmpeg when the file runs and served by the loopback CDN
 * through the daemon's stream relay, so each seek is ffmpeg's Range request into it.
 */
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLES_PER_CHANNEL_PER_FRAME } from '../../daemon/audio/pcm-format';
import type { Song } from '../../shared/domain/schemas';
import { ok } from '../../shared/result';
import { LocalSource } from '../../shared/sources/local/local-source';
import { SourceRegistry } from '../../shared/sources/source-registry';
import { FFMPEG, makeTempDir } from '../../testkit/audio-signals';
import { Ts3TestServer } from '../../testkit/ts3-server/ts3-test-server';
import { type AudioCdn, startAudioCdn } from '../helpers/audio-cdn';
import { DaemonHarness } from './harness';
import { frequencyOf, heard } from './heard';

const HOURS_3 = 3 * 60 * 60;
const FRAME_SECONDS = 0.02;

let server: Ts3TestServer;
let h: DaemonHarness;
let cdn: AudioCdn;
let bot: string;
const clientId = () => server.clientByName('Marathon')?.id ?? -1;

const long: Song = {
  id: 'three-hours',
  name: 'Three hours',
  artist: 'Tone',
  album: '',
  duration: HOURS_3,
  coverUrl: '',
  platform: 'music_a',
};

beforeAll(async () => {
  const dir = makeTempDir('long-track-');
  try {
    const file = dir.file('long.mp3');
    renderLongTone(file);
    cdn = await startAudioCdn(0, { bytes: readFileSync(file), contentType: 'audio/mpeg' });
  } finally {
    dir.remove();
  }
  server = await Ts3TestServer.start();
  h = await DaemonHarness.create(server);
  const platform = {
    platform: 'music_a' as const,
    resolveStream: async () => ok({ input: { kind: 'url' as const, url: `${cdn.baseUrl}long.mp3` } }),
  };
  await h.startDaemon(new SourceRegistry([platform, new LocalSource(h.db, h.dataDir)]));
  bot = await h.addBot(server.port, { name: 'Marathon' });
  expect((await h.command(bot, 'start')).ok).toBe(true);
}, 120_000);

afterAll(async () => {
  await h?.close();
  await server?.close();
  await cdn?.close();
});

describe('a three-hour stream', () => {
  it('seeks anywhere in it with the elapsed time the audio sent, and plays to its end', async () => {
    const next = await h.toneSong('after the marathon', [{ frequencyHz: 880, seconds: 3 }]);
    expect((await h.command(bot, 'playSong', { song: long, requestedBy: 'alice' })).ok).toBe(true);
    expect((await h.command(bot, 'addSong', { song: next, requestedBy: 'alice' })).ok).toBe(true);
    await h.waitForStatus(bot, (s) => s.currentSong?.id === long.id && s.elapsed > 0.5, 15_000, 'playing');
    expect((await h.status(bot)).effectiveDuration).toBe(HOURS_3);

    for (const position of [60 * 60, 2.5 * 60 * 60]) {
      const packetsBefore = heard(server, clientId()).arrivals.length;
      expect((await h.command(bot, 'seek', { position })).data).toEqual({ seekOffset: position });
      const status = await h.waitForStatus(
        bot,
        (s) => s.playing && s.elapsed > position + 1.5,
        15_000,
        `playing on from ${position} s`,
      );
      const sent = (heard(server, clientId()).arrivals.length - packetsBefore) * FRAME_SECONDS;
      expect(Math.abs(status.elapsed - (position + sent))).toBeLessThan(0.5);
      const sound = heard(server, clientId());
      expect(frequencyOf(sound.mono.subarray(-25 * SAMPLES_PER_CHANNEL_PER_FRAME))).toBeCloseTo(440, -1);
    }

    // Ten seconds before the end: the song plays what the file has left, then the next one follows.
    const nearEnd = HOURS_3 - 10;
    const packetsBefore = heard(server, clientId()).arrivals.length;
    expect((await h.command(bot, 'seek', { position: nearEnd })).ok).toBe(true);
    const last = await h.waitForStatus(
      bot,
      (s) => s.currentSong?.id === long.id && s.elapsed > nearEnd + 1,
      15_000,
      'playing near the end',
    );
    expect(last.elapsed).toBeLessThan(nearEnd + 2);
    await h.waitForStatus(bot, (s) => s.currentSong?.id === next.id, 20_000, 'the next song');
    await h.waitForStatus(bot, (s) => !s.playing, 10_000, 'the next song ends');

    // The frames heard from the seek on: the long song's 440 Hz, then the next song's 880 Hz.
    const sound = heard(server, clientId());
    const pitches: number[] = [];
    for (let packet = packetsBefore; packet + 5 <= sound.arrivals.length; packet += 5)
      pitches.push(
        frequencyOf(
          sound.mono.subarray(
            packet * SAMPLES_PER_CHANNEL_PER_FRAME,
            (packet + 5) * SAMPLES_PER_CHANNEL_PER_FRAME,
          ),
        ),
      );
    const longSeconds = pitches.filter((hz) => Math.abs(hz - 440) < 20).length * 5 * FRAME_SECONDS;
    const nextSeconds = pitches.filter((hz) => Math.abs(hz - 880) < 20).length * 5 * FRAME_SECONDS;
    expect(Math.abs(longSeconds - 10)).toBeLessThan(0.5);
    expect(Math.abs(nextSeconds - 3)).toBeLessThan(0.5);
  }, 120_000);
});

/** Three hours of a 440 Hz sine, mono 8 kHz MP3 at 8 kb/s: about 10 MB, made in seconds. */
function renderLongTone(file: string): void {
  const run = spawnSync(FFMPEG, [
    ...['-hide_banner', '-loglevel', 'error', '-y', '-f', 'lavfi'],
    ...['-i', `sine=frequency=440:sample_rate=8000:duration=${HOURS_3}`, '-ac', '1', '-b:a', '8k', file],
  ]);
  if (run.status !== 0) throw new Error(`ffmpeg could not render the long file: ${run.stderr.toString()}`);
}
