/**
 * Loudness normalization end to end: two uploads 20 dB apart, played by a bot to the TS3 test server,
 * come out at the bot's target (measured with BS.1770 on what the server decoded) and under the
 * ceiling; turned off through the op, they are 20 dB apart again. The status says the gain and where
 * its figure comes from.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_LOUDNESS_TARGET_LUFS, TRUE_PEAK_CEILING_DB } from '../../shared/domain/loudness';
import { loudnessLufs, peakDbfs } from '../../testkit/audio-signals';
import { Ts3TestServer } from '../../testkit/ts3-server/ts3-test-server';
import { DaemonHarness } from './harness';
import { heard, samplesBetween } from './heard';

describe('a bot with loudness normalization (on by default)', () => {
  let server: Ts3TestServer;
  let h: DaemonHarness;
  let bot: string;
  const clientId = () => server.clientByName('Even')?.id ?? -1;

  beforeAll(async () => {
    server = await Ts3TestServer.start();
    h = await DaemonHarness.create(server);
    await h.startDaemon();
    bot = await h.addBot(server.port, { name: 'Even' });
    await h.command(bot, 'start');
    await h.command(bot, 'volume', { volume: 100 });
  });

  afterAll(async () => {
    await h?.close();
    await server?.close();
  });

  /** What the server heard of a 440 Hz upload of `amplitude`, from its second second to its fourth. */
  async function heardTone(name: string, amplitude: number) {
    const song = await h.toneSong(name, [{ frequencyHz: 440, seconds: 5, amplitude }]);
    await h.command(bot, 'playSong', { song, requestedBy: 'alice' });
    await h.waitForStatus(bot, (s) => s.currentSong?.id === song.id && s.elapsed > 1, 6000, `${name} plays`);
    const from = performance.now();
    const status = await h.waitForStatus(bot, (s) => s.elapsed > 3.5, 6000, `${name} two seconds on`);
    const samples = samplesBetween(heard(server, clientId()), from, performance.now() - 100);
    return { lufs: loudnessLufs(samples), peak: peakDbfs(samples), status };
  }

  it('brings uploads 20 dB apart to -16 LUFS within 1 LU, under the ceiling, and says so', async () => {
    const loud = await heardTone('loud', 0.5);
    const quiet = await heardTone('quiet', 0.05);
    for (const { lufs, peak } of [loud, quiet]) {
      expect(Math.abs(lufs - DEFAULT_LOUDNESS_TARGET_LUFS)).toBeLessThan(1);
      expect(peak).toBeLessThan(TRUE_PEAK_CEILING_DB);
    }
    expect(quiet.status.loudness).toMatchObject({ enabled: true, targetLufs: -16, source: 'measured' });
    expect((quiet.status.loudness?.gainDb ?? 0) - (loud.status.loudness?.gainDb ?? 0)).toBeCloseTo(20, 0);
  }, 40_000);

  it('plays them as they were made once turned off, and keeps the setting with the bot', async () => {
    const off = await h.command(bot, 'loudness', { enabled: false });
    expect(off).toMatchObject({
      ok: true,
      message: 'Even loudness is off: songs play as loud as they were made.',
    });
    expect((await h.botRow(bot))?.loudnessNormalization).toBe(false);
    const loud = await heardTone('loud-off', 0.5);
    const quiet = await heardTone('quiet-off', 0.05);
    expect(loud.lufs - quiet.lufs).toBeCloseTo(20, 0);
    expect(quiet.status.loudness).toEqual({ enabled: false, targetLufs: -16 });

    const on = await h.command(bot, 'loudness', { enabled: true, targetLufs: -20 });
    expect(on.message).toBe('Even loudness is on: every song plays at -20 LUFS.');
    expect((await h.botRow(bot))?.loudnessTarget).toBe(-20);
    const tone = await heardTone('quiet-at-20', 0.05);
    expect(Math.abs(tone.lufs + 20)).toBeLessThan(1);
  }, 60_000);

  it('follows a change at once: the song playing drops back to its own level when turned off', async () => {
    await h.command(bot, 'loudness', { enabled: true, targetLufs: -16 });
    const song = await h.toneSong('change', [{ frequencyHz: 440, seconds: 12, amplitude: 0.05 }]);
    await h.command(bot, 'playSong', { song, requestedBy: 'alice' });
    const playing = await h.waitForStatus(
      bot,
      (s) => s.currentSong?.id === song.id && s.elapsed > 2,
      6000,
      'it plays',
    );
    const levelOf = (fromMs: number, toMs: number) =>
      loudnessLufs(samplesBetween(heard(server, clientId()), fromMs, toMs));
    const before = levelOf(performance.now() - 1000, performance.now());
    await h.command(bot, 'loudness', { enabled: false });
    const offAt = performance.now();
    await new Promise((r) => setTimeout(r, 2000));
    const after = levelOf(offAt + 600, offAt + 1900);
    expect(Math.abs(before + 16)).toBeLessThan(1);
    expect(before - after).toBeCloseTo(playing.loudness?.gainDb ?? 0, 0);
    expect((await h.status(bot)).loudness).toEqual({ enabled: false, targetLufs: -16 });
  }, 30_000);

  it('refuses a target out of range, naming it', async () => {
    const reply = await h.command(bot, 'loudness', { targetLufs: -5 });
    expect(reply).toMatchObject({ ok: false, status: 400 });
    expect(reply.message).toMatch(/targetLufs/);
  });
});
