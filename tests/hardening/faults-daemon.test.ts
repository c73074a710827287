/**
 * A daemon process killed with SIGKILL mid-song (a crash: nothing of its shutdown runs), scaled out as
 * deployed, with saved queues on. While no daemon runs the bot the api answers 503 `{error}`; a daemon
 * started again takes the bot back (its lease has lapsed), reconnects it to the voice server and
 * plays its queue on from the song and about the position the dead daemon last saved.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queueSnapshots } from '../../shared/db/schema';
import { heard } from '../daemon/heard';
import { useFaultTally } from './fault-tally';
import { BOT_NAME, type ScaledVoice, startScaledVoice } from './scaled-voice';

const tally = useFaultTally('faults-daemon');
let v: ScaledVoice;
beforeAll(async () => {
  v = await startScaledVoice({ savedQueues: true });
}, 60_000);
afterAll(() => v?.close());

describe('a daemon killed with SIGKILL and started again', () => {
  it('brings its bot back to the voice server with its queue and position', async () => {
    const { admin, botId, songs, server } = v;
    const bot = { params: { path: { botId } } };
    await expect.poll(async () => (await v.botStatus()).status, { timeout: 30_000, interval: 250 }).toBe(200);
    expect(
      tally.answered(
        (await admin.api.POST('/api/bot/{id}/start', { params: { path: { id: botId } } })).response.status,
      ),
    ).toBe(200);
    for (const song of songs) {
      const added = await admin.api.POST('/api/player/{botId}/add-song', { ...bot, body: { song } });
      expect(tally.answered(added.response.status)).toBe(200);
    }
    const skipped = await admin.api.POST('/api/player/{botId}/next', bot);
    expect(tally.answered(skipped.response.status)).toBe(200);
    // Long enough into the second song for a position checkpoint to be written.
    await expect
      .poll(
        async () => {
          const row = await v.t.db.query.queueSnapshots.findFirst({ where: eq(queueSnapshots.botId, botId) });
          return row?.currentIndex === 1 ? row.positionSeconds : 0;
        },
        { timeout: 20_000, interval: 250 },
      )
      .toBeGreaterThanOrEqual(2);
    const saved = await v.t.db.query.queueSnapshots.findFirst({ where: eq(queueSnapshots.botId, botId) });
    const firstClient = server.clientByName(BOT_NAME)!.id;

    await v.daemon.kill();
    tally.injected();
    const gone = await v.botStatus();
    tally.answered(gone.status, [503]);
    expect(gone.status).toBe(503);

    v.startDaemon();
    await expect
      .poll(async () => (await v.botStatus()).bot, { timeout: 45_000, interval: 250 })
      .toMatchObject({ connected: true, playing: true, queueSize: 3, currentSong: { id: songs[1]!.id } });
    const { bot: back } = await v.botStatus();
    expect(back?.elapsed).toBeGreaterThanOrEqual(saved!.positionSeconds);
    const queue = await admin.api.GET('/api/player/{botId}/queue', bot);
    expect(tally.answered(queue.response.status)).toBe(200);
    expect(queue.data?.queue.map((s) => s.id)).toEqual(songs.map((s) => s.id));
    // A new voice session, and it is heard. The dead one's lingers until the server times it out and
    // keeps the nickname meanwhile, so the bot comes back as "<name> (2)", as on a real server.
    const newcomer = () =>
      server.clients.filter((c) => c.nickname.startsWith(BOT_NAME) && c.id !== firstClient)[0];
    await expect
      .poll(() => heard(server, newcomer()?.id ?? -1).mono.length, { timeout: 10_000 })
      .toBeGreaterThan(48_000);
    if ((await v.botStatus()).status !== 200) tally.crashed();
  }, 120_000);
});
