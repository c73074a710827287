/**
 * nats-server crashing under a playing bot, scaled out as deployed (a daemon process, the api on its
 * own NATS connection, JetStream leases): while NATS is down the bot keeps playing (the voice server
 * keeps receiving its audio), the api answers what needs the daemon with 503 `{error}` and what does
 * not as usual; once nats-server is back on its port, the api and the daemon find each other again
 * without either being restarted.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SAMPLES_PER_CHANNEL_PER_FRAME } from '../../daemon/audio/pcm-format';
import { heard, samplesBetween } from '../daemon/heard';
import { useFaultTally } from './fault-tally';
import { BOT_NAME, type ScaledVoice, startScaledVoice } from './scaled-voice';

const tally = useFaultTally('faults-nats');
let v: ScaledVoice;
beforeAll(async () => {
  v = await startScaledVoice();
}, 60_000);
afterAll(() => v?.close());

/** How many 20 ms frames of the bot the voice server received between two performance.now() times. */
function framesHeardBetween(from: number, to: number): number {
  const client = v.server.clientByName(BOT_NAME);
  return client
    ? samplesBetween(heard(v.server, client.id), from, to).length / SAMPLES_PER_CHANNEL_PER_FRAME
    : 0;
}

describe('nats-server crashing and coming back', () => {
  it('leaves the bot playing, answers 503 meanwhile and recovers without a restart', async () => {
    const { admin, botId, songs } = v;
    const bot = { params: { path: { botId } } };
    await expect.poll(async () => (await v.botStatus()).status, { timeout: 30_000, interval: 250 }).toBe(200);
    const started = await admin.api.POST('/api/bot/{id}/start', { params: { path: { id: botId } } });
    expect(tally.answered(started.response.status)).toBe(200);
    const played = await admin.api.POST('/api/player/{botId}/play-song', {
      ...bot,
      body: { song: songs[0]! },
    });
    expect(tally.answered(played.response.status)).toBe(200);
    await expect
      .poll(async () => (await v.botStatus()).bot?.elapsed ?? 0, { timeout: 10_000, interval: 200 })
      .toBeGreaterThan(1);

    await v.nats.crash();
    tally.injected();
    const down = performance.now();
    const needsDaemon = [
      () => admin.api.GET('/api/bot/{id}', { params: { path: { id: botId } } }),
      () => admin.api.GET('/api/player/{botId}/queue', bot),
      () => admin.api.POST('/api/player/{botId}/pause', bot),
      () => admin.api.POST('/api/player/{botId}/volume', { ...bot, body: { volume: 20 } }),
    ];
    for (const call of needsDaemon) {
      const { response, error } = await call();
      tally.answered(response.status, [503]);
      expect({ status: response.status, error }).toEqual({
        status: 503,
        error: expect.objectContaining({ error: expect.stringMatching(/bus is unavailable/) }),
      });
    }
    for (const call of [() => admin.api.GET('/api/health'), () => admin.api.GET('/api/bot/settings')]) {
      expect(tally.answered((await call()).response.status)).toBe(200);
    }

    await v.nats.restart();
    await expect.poll(async () => (await v.botStatus()).status, { timeout: 20_000, interval: 100 }).toBe(200);
    const up = performance.now();
    // The voice session does not go through NATS: the bot played on, frame after frame, all along.
    // (Half the frames due at least: a busy test process stamps some arrivals late.)
    expect(framesHeardBetween(down, up)).toBeGreaterThanOrEqual(Math.floor((up - down) / 20 / 2));
    const { bot: status } = await v.botStatus();
    expect(status).toMatchObject({ connected: true, playing: true, currentSong: { id: songs[0]!.id } });
    // The pause refused while NATS was down did not happen; one sent now does.
    const paused = await admin.api.POST('/api/player/{botId}/pause', bot);
    expect(tally.answered(paused.response.status)).toBe(200);
    await expect.poll(async () => (await v.botStatus()).bot?.paused).toBe(true);
    if ((await v.botStatus()).status !== 200) tally.crashed();
  }, 90_000);
});
