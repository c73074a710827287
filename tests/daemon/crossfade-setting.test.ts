/**
 * The crossfade setting in the daemon: the operation stores it with the bot, and the bot keeps it
 * across a daemon restart and takes a changed row on a config reload, as its status shows. (How a
 * crossfade sounds is tested with the player's mixing.)
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BOTS_EVENTS } from '../../shared/bus/subjects';
import { bots } from '../../shared/db/schema';
import { Ts3TestServer } from '../../testkit/ts3-server/ts3-test-server';
import { DaemonHarness } from './harness';

describe("a bot's crossfade setting", () => {
  let server: Ts3TestServer;
  let h: DaemonHarness;
  let bot: string;

  beforeAll(async () => {
    server = await Ts3TestServer.start();
    h = await DaemonHarness.create(server);
    await h.startDaemon();
    bot = await h.addBot(server.port, { name: 'Fader' });
  });

  afterAll(async () => {
    await h?.close();
    await server?.close();
  });

  it('is stored by the operation and kept across a daemon restart', async () => {
    expect((await h.status(bot)).crossfadeSeconds).toBe(0);
    expect(await h.command(bot, 'crossfade', { seconds: 8 })).toMatchObject({
      ok: true,
      message: 'Crossfade is 8 s: the next song starts under the end of the one playing.',
    });
    expect((await h.botRow(bot))?.crossfadeSeconds).toBe(8);
    await h.stopDaemon();
    const daemon = await h.startDaemon();
    await h.waitFor(() => daemon.ownedBotIds().includes(bot), 5000, 'the bot owned again');
    expect((await h.status(bot)).crossfadeSeconds).toBe(8);
  }, 30_000);

  it('follows a changed row on a config reload', async () => {
    await h.db.update(bots).set({ crossfadeSeconds: 2 }).where(eq(bots.id, bot));
    h.bus.publish(BOTS_EVENTS, { type: 'botUpdated', botId: bot });
    await h.waitForStatus(bot, (s) => s.crossfadeSeconds === 2, 5000, 'the reloaded crossfade');
  });

  it('refuses seconds out of range at the bus, storing nothing', async () => {
    const reply = await h.command(bot, 'crossfade', { seconds: 13 });
    expect(reply).toMatchObject({ ok: false, status: 400 });
    expect(reply.message).toMatch(/seconds/);
    expect((await h.botRow(bot))?.crossfadeSeconds).toBe(2);
  });
});
