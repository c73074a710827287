/**
 * Voice ducking end to end: a second voice client talks (Opus sent to the TS3 test server, which relays
 * it to the bot); the bot's music as the server hears it drops to the ducked level of gain.ts and
 * swells back once the talker stops.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { volumeToAmplitude } from '../../daemon/audio/encode/gain';
import type { Ts3Client } from '../../daemon/ts3';
import { toDb } from '../../testkit/audio-signals';
import { Ts3TestServer } from '../../testkit/ts3-server/ts3-test-server';
import { makeClient, opusSine, sendPaced } from '../ts3/helpers';
import { DaemonHarness } from './harness';
import { heard, samplesBetween, soundingLevel } from './heard';

const DUCK_PERCENT = 20;
const TONE_AMPLITUDE = 0.5;
const TALK_SECONDS = 2.5;

describe('voice ducking', () => {
  let server: Ts3TestServer;
  let h: DaemonHarness;
  let talker: Ts3Client;

  beforeAll(async () => {
    server = await Ts3TestServer.start();
    h = await DaemonHarness.create(server);
    await h.setSettings({ voiceDucking: { enabled: true, volumePercent: DUCK_PERCENT } });
    await h.startDaemon();
    talker = makeClient(server.port, server.rootPublicKey, { nickname: 'Talker' });
    await talker.connect();
  });

  afterAll(async () => {
    await talker?.disconnect().catch(() => undefined);
    await h?.close();
    await server?.close();
  });

  it(`drops the music to ${DUCK_PERCENT} % of the volume (square law) while another client talks`, async () => {
    // The level is measured against the tone's own: normalization would move it (tested apart).
    const bot = await h.addBot(server.port, { name: 'Ducker', loudnessNormalization: false });
    const song = await h.toneSong('music', [{ frequencyHz: 440, seconds: 20, amplitude: TONE_AMPLITUDE }]);
    await h.command(bot, 'start');
    await h.command(bot, 'volume', { volume: 100 });
    await h.command(bot, 'playSong', { song, requestedBy: 'alice' });
    await h.waitForStatus(bot, (s) => s.elapsed > 1.5, 6000, 'the music plays');
    const botClient = server.clientByName('Ducker')?.id ?? -1;
    expect(server.clientByName('Talker')?.channelId).toBe(server.clientByName('Ducker')?.channelId);

    const voice = opusSine(1000, TALK_SECONDS);
    const talkFrom = performance.now();
    await sendPaced((i) => talker.sendVoice(voice[i]!), voice.length);
    talker.endVoice();
    const talkTo = performance.now();
    // Released over 400 ms once the end-of-speech packet (or 400 ms of quiet) tells the bot.
    await new Promise((r) => setTimeout(r, 2000));

    const sound = heard(server, botClient);
    const full = TONE_AMPLITUDE / Math.SQRT2;
    const levelDb = (fromMs: number, toMs: number) =>
      toDb(soundingLevel(samplesBetween(sound, fromMs, toMs)) / full);
    const before = levelDb(talkFrom - 1000, talkFrom - 100);
    const during = levelDb(talkFrom + 500, talkTo - 100);
    const after = levelDb(talkTo + 1200, talkTo + 1900);
    const expectedDuckDb = toDb(volumeToAmplitude(DUCK_PERCENT));
    expect(Math.abs(before)).toBeLessThan(1);
    expect(Math.abs(during - expectedDuckDb)).toBeLessThan(1.5);
    expect(Math.abs(after)).toBeLessThan(1);
  }, 40_000);
});
