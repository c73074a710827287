/**
 * The operation table (shared/bus/bot-ops.ts) against the real daemon: every op, run on a bot connected
 * to the TS3 test server, answers a reply whose data parses with the op's declared reply schema, both
 * raw off the bus and through the api's bot client; and the boundary refuses unknown ops, bad
 * arguments and malformed commands with a clear 400.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BotClient } from '../../api/bots/bot-client';
import { BOT_OP_NAMES, BOT_OPS, type BotOp, type BotOpArgs } from '../../shared/bus/bot-ops';
import { BotReplySchema } from '../../shared/bus/messages';
import { botCommandSubject } from '../../shared/bus/subjects';
import type { Song } from '../../shared/domain/schemas';
import { Ts3TestServer } from '../../testkit/ts3-server/ts3-test-server';
import { ACTOR, DaemonHarness } from './harness';

describe('the operation table on a connected bot', () => {
  let server: Ts3TestServer;
  let h: DaemonHarness;
  let bot: string;
  let client: BotClient;
  let song: Song;

  beforeAll(async () => {
    server = await Ts3TestServer.start();
    h = await DaemonHarness.create(server);
    await h.startDaemon();
    bot = await h.addBot(server.port, { name: 'Table' });
    client = new BotClient({ bus: h.bus, db: h.db });
    song = await h.toneSong('table tone', [{ frequencyHz: 440, seconds: 6 }]);
  });

  afterAll(async () => {
    await h?.close();
    await server?.close();
  });

  /** Valid arguments for every op, in an order that leaves each op something to do. */
  const steps = (): { [Op in BotOp]: [Op, BotOpArgs<Op>] }[BotOp][] => [
    ['status', {}],
    ['start', {}],
    ['queue', {}],
    ['heldSongs', {}],
    ['elapsed', {}],
    ['listen', { hub: 'table', listeners: 0 }],
    ['playSong', { song, requestedBy: 'alice' }],
    ['addSong', { song, requestedBy: 'alice' }],
    ['playNextSong', { song, requestedBy: 'alice' }],
    ['playNowSong', { song, requestedBy: 'alice' }],
    ['loadSongs', { songs: [song, song], mode: 'append', requestedBy: 'alice', label: 'two tones' }],
    ['pause', {}],
    ['resume', {}],
    ['seek', { position: 1 }],
    ['volume', { volume: 40 }],
    ['loudness', { enabled: true, targetLufs: -14 }],
    ['autoplay', { mode: 'related' }],
    ['crossfade', { seconds: 4 }],
    ['mode', { mode: 'loop' }],
    ['playAt', { index: 1 }],
    ['move', { from: 3, to: 0 }],
    ['remove', { index: 4 }],
    ['next', {}],
    ['voteSkip', { voter: { kind: 'web', id: 'alice' } }],
    ['prev', {}],
    ['stopPlayback', {}],
    ['clear', {}],
    // The clear's Undo, under the token the clear answered (the loop puts it in).
    ['undoReplace', { token: 'the token the clear answered' }],
    ['stop', {}],
  ];

  it('covers every op of the table', () => {
    expect(new Set(steps().map(([op]) => op))).toEqual(new Set(BOT_OP_NAMES));
  });

  it('answers every op with data that parses with its declared reply schema', async () => {
    let undoToken = '';
    for (const [op, stepArgs] of steps()) {
      const args = op === 'undoReplace' ? { token: undoToken } : stepArgs;
      const raw = BotReplySchema.parse(
        await h.bus.request(botCommandSubject(bot), { op, args, actor: ACTOR }, { timeoutMs: 30_000 }),
      );
      const answered = raw.data as { undoToken?: string } | undefined;
      if (answered?.undoToken) undoToken = answered.undoToken;
      expect({ op, ok: raw.ok, status: raw.status }).toEqual({ op, ok: true, status: 200 });
      const parsed = BOT_OPS[op].reply.safeParse(raw.data);
      expect({ op, parsed: parsed.success }).toEqual({ op, parsed: true });
      if (op === 'start') await h.waitForStatus(bot, (s) => s.connected, 15_000, 'connected');
    }
  });

  it('hands the api typed data through the bot client', async () => {
    const { data: started } = await client.call(bot, 'start', {}, ACTOR);
    expect(started.id).toBe(bot);
    const { data: queue } = await client.call(bot, 'queue', {}, ACTOR);
    expect(queue.status.connected).toBe(true);
    const { data: elapsed } = await client.call(bot, 'elapsed', {}, ACTOR);
    expect(typeof elapsed.elapsed).toBe('number');
  });
});

describe('the operation boundary', () => {
  let server: Ts3TestServer;
  let h: DaemonHarness;
  let bot: string;

  beforeAll(async () => {
    server = await Ts3TestServer.start();
    h = await DaemonHarness.create(server);
    await h.startDaemon();
    bot = await h.addBot(server.port, { name: 'Boundary' });
  });

  afterAll(async () => {
    await h?.close();
    await server?.close();
  });

  const send = async (command: unknown) =>
    BotReplySchema.parse(await h.bus.request(botCommandSubject(bot), command, { timeoutMs: 5000 }));

  it('refuses an unknown op by name', async () => {
    expect(await send({ op: 'selfDestruct', args: {}, actor: ACTOR })).toMatchObject({
      ok: false,
      status: 400,
      message: 'unknown operation selfDestruct',
    });
  });

  it('refuses bad arguments naming the field, and unknown argument fields', async () => {
    expect(await send({ op: 'volume', args: { volume: 101 }, actor: ACTOR })).toMatchObject({
      ok: false,
      status: 400,
      message: expect.stringMatching(/^invalid arguments for volume: volume: /),
    });
    expect(await send({ op: 'pause', args: { force: true }, actor: ACTOR })).toMatchObject({
      status: 400,
      message: expect.stringMatching(/^invalid arguments for pause: /),
    });
    expect(await send({ op: 'playAt', args: 'first', actor: ACTOR })).toMatchObject({ status: 400 });
  });

  it('refuses a command that is not one', async () => {
    expect(await send({ op: 'status' })).toEqual({
      ok: false,
      status: 400,
      message: 'malformed bot command',
    });
    expect(await send('status')).toEqual({ ok: false, status: 400, message: 'malformed bot command' });
  });

  it('refuses bad arguments in the api before they travel', async () => {
    const client = new BotClient({ bus: h.bus, db: h.db });
    const bad = { volume: 500 } as unknown as BotOpArgs<'volume'>;
    await expect(client.call(bot, 'volume', bad, ACTOR)).rejects.toThrow(
      /^invalid arguments for volume: volume: /,
    );
  });

  it('refuses audio-starting ops on a disconnected bot with 409, by the daemon and by the api before resolving', async () => {
    const reply = await send({ op: 'next', args: {}, actor: ACTOR });
    expect(reply).toMatchObject({ ok: false, status: 409 });
    const client = new BotClient({ bus: h.bus, db: h.db });
    let resolved = false;
    await expect(
      client.callResolving(bot, 'addSong', ACTOR, async () => {
        resolved = true;
        throw new Error('must not be asked');
      }),
    ).rejects.toMatchObject({ status: 409, phrase: { code: 'notConnected' } });
    expect(resolved).toBe(false);
  });
});
