/**
 * ffmpeg dying mid-track (the OOM killer, an admin's kill): the daemon's decoder child is found by its
 * parent pid in /proc and killed with SIGKILL while a song plays, twice in a row. Each time the bot
 * plays out what it had decoded, says in its channel that the song could not be played and why, and
 * goes on to the next song, which the voice server hears; the daemon keeps answering throughout.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { receipts } from '../../shared/receipts';
import { DECODER_NAME } from '../../testkit/audio-signals';
import { Ts3TestServer } from '../../testkit/ts3-server/ts3-test-server';
import { DaemonHarness } from '../daemon/harness';
import { frequencyOf, heard, samplesBetween } from '../daemon/heard';
import { descendantsRunning } from './child-processes';
import { useFaultTally } from './fault-tally';

const tally = useFaultTally('faults-ffmpeg');
const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const close of closers.reverse()) await close();
});

describe('an ffmpeg decoder killed mid-track', () => {
  it('makes the bot say so and play the next song, every time', async () => {
    const server = await Ts3TestServer.start();
    closers.push(() => server.close());
    const h = await DaemonHarness.create(server);
    closers.push(() => h.close());
    await h.startDaemon();
    const bot = await h.addBot(server.port, { name: 'Steady' });
    const tones = [440, 660, 880];
    const songs = await Promise.all(
      tones.map((frequencyHz) => h.toneSong(`tone ${frequencyHz}`, [{ frequencyHz, seconds: 30 }])),
    );
    const said: string[] = [];
    server.on('textMessage', ({ message }) => said.push(message));
    expect((await h.command(bot, 'start')).ok).toBe(true);
    for (const song of songs) await h.command(bot, 'addSong', { song, requestedBy: 'alice' });
    const clientId = server.clientByName('Steady')?.id ?? -1;
    const killed = new Set<number>();

    for (const [i, song] of songs.slice(0, 2).entries()) {
      const next = songs[i + 1]!;
      await h.waitForStatus(
        bot,
        (s) => s.currentSong?.id === song.id && s.elapsed > 1,
        15_000,
        `${song.name} playing`,
      );
      let decoder: number | undefined;
      await h.waitFor(
        () => {
          decoder = descendantsRunning(DECODER_NAME).find((pid) => !killed.has(pid));
          return decoder !== undefined;
        },
        5000,
        `the decoder of ${song.name}`,
      );
      process.kill(decoder!, 'SIGKILL');
      killed.add(decoder!);
      tally.injected();

      // A killed decoder printed nothing that names a cause: the generic kind, never ffmpeg's words.
      await h.waitFor(
        () => said.includes(receipts.playbackDecodeFailed(song)),
        20_000,
        `the bot saying ${song.name} failed (said ${JSON.stringify(said)})`,
      );
      const status = await h.waitForStatus(
        bot,
        (s) => s.currentSong?.id === next.id && s.playing && s.elapsed > 1,
        15_000,
        `${next.name} playing after the kill`,
      );
      expect(status.connected).toBe(true);
      const since = performance.now();
      await h.waitFor(
        () => samplesBetween(heard(server, clientId), since, Number.POSITIVE_INFINITY).length >= 48_000,
        10_000,
        `a second of ${next.name} heard`,
      );
      const sound = samplesBetween(heard(server, clientId), since, Number.POSITIVE_INFINITY);
      expect(Math.abs(frequencyOf(sound) - tones[i + 1]!)).toBeLessThan(5);
    }
    if (!h.daemon?.ownedBotIds().includes(bot)) tally.crashed();
    expect((await h.status(bot)).connected).toBe(true);
  }, 90_000);
});
