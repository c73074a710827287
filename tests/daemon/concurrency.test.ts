/** Twenty bots on one daemon, each in its own channel with its own tone: every stream stays its own. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ts3TestServer } from '../../testkit/ts3-server/ts3-test-server';
import { DaemonHarness } from './harness';
import { frequencyOf, heard } from './heard';

const BOTS = 20;
const toneOf = (i: number) => 300 + 40 * i;

describe('20 concurrent bots', () => {
  let server: Ts3TestServer;
  let h: DaemonHarness;

  beforeAll(async () => {
    // One channel per bot, so the server does not forward every bot's voice to the other nineteen.
    const rooms = Array.from({ length: BOTS }, (_, i) => ({ name: `Room${i}` }));
    server = await Ts3TestServer.start({ channels: [{ name: 'Lobby', isDefault: true }, ...rooms] });
    h = await DaemonHarness.create(server);
    await h.startDaemon();
  });

  afterAll(async () => {
    await h?.close();
    await server?.close();
  });

  it('each bot delivers its own tone', async () => {
    const ids = await Promise.all(
      Array.from({ length: BOTS }, (_, i) =>
        h.addBot(server.port, { name: `Bot${i}`, defaultChannel: `Room${i}` }),
      ),
    );
    const songs = await Promise.all(
      ids.map((_, i) => h.toneSong(`tone${i}`, [{ frequencyHz: toneOf(i), seconds: 3 }])),
    );
    const started = await Promise.all(ids.map((id) => h.command(id, 'start')));
    expect(started.map((r) => r.status)).toEqual(ids.map(() => 200));
    const played = await Promise.all(
      ids.map((id, i) => h.command(id, 'addSong', { song: songs[i], requestedBy: 'alice' })),
    );
    expect(played.every((r) => r.ok)).toBe(true);
    await Promise.all(
      ids.map((id) => h.waitForStatus(id, (s) => s.currentSong === null, 15_000, 'end of tone')),
    );
    const results = ids.map((_, i) => {
      const client = server.clientByName(`Bot${i}`);
      const stats = server.voiceStats(client?.id ?? -1);
      return {
        expected: toneOf(i),
        heard: frequencyOf(heard(server, client?.id ?? -1).mono),
        packets: stats?.packets ?? 0,
      };
    });
    for (const r of results) {
      expect(Math.abs(r.heard - r.expected)).toBeLessThan(5);
      expect(r.packets).toBeGreaterThan(140);
    }
  }, 60_000);
});
