/**
 * Songs joined end to end, as the TS3 test server hears a bot: an album of two halves of one tone
 * comes out as one tone (no silent frame, no click where they meet), a song queued ahead of its
 * turn gives way when the queue changes before it plays (a song put first plays instead), and
 * autoplay's song follows the queue's last as closely as a queued one.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PCM_FORMAT, SAMPLES_PER_CHANNEL_PER_FRAME } from '../../daemon/audio/pcm-format';
import { AUTOPLAY_LABEL } from '../../shared/domain/constants';
import { toDb, tonePower } from '../../testkit/audio-signals';
import { Ts3TestServer } from '../../testkit/ts3-server/ts3-test-server';
import { DaemonHarness } from './harness';
import { frequencyOf, heard, rms, samplesBetween, samplesOfPackets } from './heard';

const AMPLITUDE = 0.4;

describe('songs joined one to the next', () => {
  let server: Ts3TestServer;
  let h: DaemonHarness;
  let bot: string;
  const clientId = () => server.clientByName('Album')?.id ?? -1;

  beforeAll(async () => {
    server = await Ts3TestServer.start();
    h = await DaemonHarness.create(server);
    await h.startDaemon();
    bot = await h.addBot(server.port, { name: 'Album' });
    await h.command(bot, 'start');
    await h.command(bot, 'volume', { volume: 100 });
    // As the songs were made: a normalization gain measured anew for the second half would step.
    await h.command(bot, 'loudness', { enabled: false });
  }, 60_000);

  afterAll(async () => {
    await h?.close();
    await server?.close();
  });

  it('plays two halves of one tone as one tone: no gap and no click where they meet', async () => {
    // 3 s of 440 Hz is 1,320 whole cycles: the second half starts at the phase the first ends at.
    const first = await h.toneSong('half one', [{ frequencyHz: 440, seconds: 3, amplitude: AMPLITUDE }]);
    const second = await h.toneSong('half two', [{ frequencyHz: 440, seconds: 3, amplitude: AMPLITUDE }]);
    const packetsBefore = heard(server, clientId()).arrivals.length;
    await h.command(bot, 'playSong', { song: first, requestedBy: 'alice' });
    await h.command(bot, 'addSong', { song: second, requestedBy: 'alice' });
    await h.waitForStatus(bot, (s) => s.currentSong?.id === second.id, 8000, 'the second half');
    await h.waitForStatus(bot, (s) => !s.playing, 8000, 'the album ends');

    const sound = heard(server, clientId());
    const frames: Float64Array[] = [];
    for (let packet = packetsBefore; packet < sound.arrivals.length; packet++)
      frames.push(
        sound.mono.subarray(
          packet * SAMPLES_PER_CHANNEL_PER_FRAME,
          (packet + 1) * SAMPLES_PER_CHANNEL_PER_FRAME,
        ),
      );
    const start = frames.findIndex((frame) => rms(frame) > 0.01);
    // The halves meet 150 frames in: the frames around it all carry the tone at its level.
    const around = frames.slice(start + 135, start + 165);
    expect(around).toHaveLength(30);
    for (const frame of around) expect(rms(frame)).toBeGreaterThan(AMPLITUDE / Math.SQRT2 - 0.04);
    const joined = Float64Array.from(around.flatMap((frame) => Array.from(frame)));
    // No sample moves further than a 440 Hz sine of that level can in one sample (room for the codec).
    const sineStep = AMPLITUDE * ((2 * Math.PI * 440) / PCM_FORMAT.sampleRateHz);
    let largestStep = 0;
    for (let i = 1; i < joined.length; i++)
      largestStep = Math.max(largestStep, Math.abs((joined[i] ?? 0) - (joined[i - 1] ?? 0)));
    expect(largestStep).toBeLessThan(sineStep * 1.5);
  }, 40_000);

  it("crossfades two tones of different pitch for the bot's crossfade time, equal-power", async () => {
    const low = await h.toneSong('low', [{ frequencyHz: 440, seconds: 5, amplitude: AMPLITUDE }]);
    const high = await h.toneSong('high', [{ frequencyHz: 660, seconds: 5, amplitude: AMPLITUDE }]);
    await h.command(bot, 'crossfade', { seconds: 2 });
    await h.command(bot, 'clear');
    const packetsBefore = heard(server, clientId()).arrivals.length;
    await h.command(bot, 'playSong', { song: low, requestedBy: 'alice' });
    await h.command(bot, 'addSong', { song: high, requestedBy: 'alice' });
    await h.waitForStatus(bot, (s) => s.currentSong?.id === high.id, 10_000, 'the second tone');
    await h.waitForStatus(bot, (s) => !s.playing, 10_000, 'both end');
    await h.command(bot, 'crossfade', { seconds: 0 });

    const sound = heard(server, clientId());
    const mono = sound.mono.subarray(packetsBefore * SAMPLES_PER_CHANNEL_PER_FRAME);
    // Per 100 ms: which of the two tones sound (within 30 dB of a tone alone at full level).
    const window = SAMPLES_PER_CHANNEL_PER_FRAME * 5;
    const full = (AMPLITUDE * AMPLITUDE) / 2;
    const level = (samples: Float64Array, hz: number) => (2 * tonePower(samples, hz)) / samples.length;
    let both = 0;
    let middle: Float64Array | undefined;
    for (let start = 0; start + window <= mono.length; start += window) {
      const samples = mono.subarray(start, start + window);
      const low440 = level(samples, 440);
      const high660 = level(samples, 660);
      if (low440 > full / 1000 && high660 > full / 1000) {
        both++;
        // The window where the two weigh the same: the fade's middle.
        if (
          !middle ||
          Math.abs(toDb(low440 / high660)) < Math.abs(toDb(level(middle, 440) / level(middle, 660)))
        )
          middle = samples;
      }
    }
    expect(both * 0.1).toBeGreaterThan(1.6);
    expect(both * 0.1).toBeLessThan(2.4);
    // Equal power: where they weigh the same, the two together are as loud as either alone.
    const sum = middle ? level(middle, 440) + level(middle, 660) : 0;
    expect(Math.abs(10 * Math.log10(sum / full))).toBeLessThan(1.5);
  }, 40_000);

  it('lets a song queued ahead give way to one put first before it plays', async () => {
    const now = await h.toneSong('now', [{ frequencyHz: 440, seconds: 3 }]);
    const later = await h.toneSong('later', [{ frequencyHz: 660, seconds: 3 }]);
    const first = await h.toneSong('first', [{ frequencyHz: 880, seconds: 3 }]);
    await h.command(bot, 'clear');
    await h.command(bot, 'playSong', { song: now, requestedBy: 'alice' });
    await h.command(bot, 'addSong', { song: later, requestedBy: 'alice' });
    // Three seconds is within the lead: `later` is queued behind `now` from its first frames on.
    await h.waitForStatus(bot, (s) => s.currentSong?.id === now.id && s.elapsed > 1, 6000, 'now plays');
    await h.command(bot, 'playNextSong', { song: first, requestedBy: 'bob' });
    const next = await h.waitForStatus(bot, (s) => s.currentSong?.id !== now.id, 8000, 'the next song');
    expect(next.currentSong?.id).toBe(first.id);
    await h.waitForStatus(bot, (s) => s.elapsed > 1, 4000, 'first heard');
    const at = performance.now();
    expect(Math.abs(frequencyOf(samplesBetween(heard(server, clientId()), at - 600, at)) - 880)).toBeLessThan(
      5,
    );
  }, 40_000);

  it("goes on with autoplay's song as it does with a queued one: no pause after the queue's last", async () => {
    await h.setSettings({ keepUploads: true });
    await h.command(bot, 'clear');
    await h.command(bot, 'autoplay', { mode: 'related' });
    const last = await h.toneSong('last', [{ frequencyHz: 440, seconds: 3, amplitude: AMPLITUDE }]);
    // The one upload not played yet: what autoplay finds.
    const related = await h.toneSong('related', [{ frequencyHz: 660, seconds: 3, amplitude: AMPLITUDE }]);
    const packetsBefore = heard(server, clientId()).arrivals.length;
    await h.command(bot, 'playSong', { song: last, requestedBy: 'alice' });
    const auto = await h.waitForStatus(bot, (s) => s.currentSong?.id === related.id, 8000, "autoplay's song");
    expect(auto.currentSong?.requestedBy).toBe(AUTOPLAY_LABEL);
    await h.waitForStatus(bot, (s) => !s.playing, 8000, 'autoplay has nothing more');
    await h.command(bot, 'autoplay', { mode: 'off' });

    const sound = heard(server, clientId());
    const arrivals = sound.arrivals.slice(packetsBefore);
    const sounding = (packet: number) =>
      rms(samplesOfPackets(sound, packetsBefore + packet, packetsBefore + packet + 1)) > 0.01;
    const start = arrivals.findIndex((_, packet) => sounding(packet));
    // Both songs, 300 frames, sound one after the other: no silent frame, and no pause between packets
    // longer than a busy machine's jitter (a song found only after the last one ended waits ~0.3 s).
    const both = arrivals.slice(start, start + 300);
    expect(both).toHaveLength(300);
    for (let packet = start; packet < start + 295; packet++) expect(sounding(packet)).toBe(true);
    let longest = 0;
    for (let i = 1; i < both.length; i++) longest = Math.max(longest, (both[i] ?? 0) - (both[i - 1] ?? 0));
    expect(longest).toBeLessThan(150);
  }, 40_000);
});
