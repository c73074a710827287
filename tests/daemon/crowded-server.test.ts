/**
 * Issue 40, crowded servers: ten bots with `autoStart` on one TS3 server all start together when the
 * daemon does, and all of them connect and stay. Three are configured as `MusicBot`, one as the
 * look-alike `MusicBot2`, and one with the nickname of a person already on the server; the server
 * refuses a taken nickname ("nickname is already in use"), so those join under a suffixed nickname and
 * say so in their status instead of failing their start.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Ts3Client } from '../../daemon/ts3';
import { bots } from '../../shared/db/schema';
import type { BotStatus } from '../../shared/domain/schemas';
import { Ts3TestServer } from '../../testkit/ts3-server/ts3-test-server';
import { makeClient } from '../ts3/helpers';
import { DaemonHarness } from './harness';

/** A rival bot's first connection was reported to drop after about 25 s when several start together. */
const STAY_MS = 30_000;
const NICKNAMES = [
  'MusicBot',
  'MusicBot',
  'MusicBot2',
  'MusicBot',
  'Alice',
  ...Array.from({ length: 5 }, (_, i) => `Radio ${i + 1}`),
];

let server: Ts3TestServer;
let h: DaemonHarness;
let alice: Ts3Client;
const ids: string[] = [];
const disconnects: { clientId: number; reason: string }[] = [];

beforeAll(async () => {
  server = await Ts3TestServer.start();
  h = await DaemonHarness.create(server);
  // A person who has the nickname one bot is configured with.
  alice = makeClient(server.port, server.rootPublicKey, { nickname: 'Alice' });
  await alice.connect();
  const now = new Date();
  for (const [i, nickname] of NICKNAMES.entries()) {
    const id = randomUUID();
    ids.push(id);
    await h.db.insert(bots).values({
      id,
      name: `Crowd ${i + 1}`,
      serverAddress: '127.0.0.1',
      serverPort: server.port,
      nickname,
      autoStart: true,
      createdAt: now,
      updatedAt: now,
    });
  }
  server.on('clientDisconnected', (e) => disconnects.push(e));
  await h.startDaemon();
});

afterAll(async () => {
  await alice?.disconnect();
  await h?.close();
  await server?.close();
});

const statuses = (): Promise<BotStatus[]> => Promise.all(ids.map((id) => h.status(id)));

describe('ten autoStart bots on one server', () => {
  it('all connect at once, the taken nicknames suffixed and noted in the status', async () => {
    let all: BotStatus[] = [];
    await h.waitFor(
      async () => {
        all = await statuses();
        return all.every((s) => s.connected);
      },
      20_000,
      () => `every bot connected (not yet: ${all.filter((s) => !s.connected).map((s) => s.name)})`,
    );
    const onServer = server.clients.map((c) => c.nickname).sort();
    expect(onServer).toEqual(
      [
        'Alice',
        'Alice (2)',
        'MusicBot',
        'MusicBot (2)',
        'MusicBot (3)',
        'MusicBot2',
        ...NICKNAMES.slice(5),
      ].sort(),
    );
    // Which of the three `MusicBot`s got the name first is a race; the other two say what they got.
    const musicBots = all.filter((_, i) => NICKNAMES[i] === 'MusicBot');
    expect(musicBots.filter((s) => s.nicknameTaken === undefined)).toHaveLength(1);
    expect(musicBots.flatMap((s) => (s.nicknameTaken ? [s.nicknameTaken] : [])).sort(byUsed)).toEqual([
      { requested: 'MusicBot', used: 'MusicBot (2)' },
      { requested: 'MusicBot', used: 'MusicBot (3)' },
    ]);
    expect(all[4]?.nicknameTaken).toEqual({ requested: 'Alice', used: 'Alice (2)' });
    // The look-alike and the others keep their own nicknames, with nothing to note.
    for (const i of [2, 5, 6, 7, 8, 9]) expect(all[i]?.nicknameTaken).toBeUndefined();
  }, 40_000);

  it(
    'all stay connected',
    async () => {
      const connectedIds = server.clients.map((c) => c.id);
      await sleep(STAY_MS);
      expect(disconnects).toEqual([]);
      expect(server.clients.map((c) => c.id)).toEqual(connectedIds);
      expect((await statuses()).every((s) => s.connected)).toBe(true);
    },
    STAY_MS + 10_000,
  );

  it('a start of a bot whose nickname is taken says so in its receipt', async () => {
    const reply = await h.command(ids[4]!, 'stop');
    expect(reply.ok).toBe(true);
    const started = await h.command(ids[4]!, 'start');
    expect(started).toMatchObject({
      ok: true,
      message: 'Connected. Nickname Alice is already in use on the server; connected as Alice (2).',
    });
  });
});

function byUsed(a: { used: string }, b: { used: string }): number {
  return a.used.localeCompare(b.used);
}
