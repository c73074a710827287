/**
 * The api's live bot-status view (api/bots/status-view.ts) against the real daemon on the in-process
 * bus, with the view's clock in the test's hand: statuses heard from state events and probes, one
 * probe per bot however many ask, entries that expire so a stopped daemon's bots show disconnected,
 * entries dropped by a change through this process or a bots event, a probe answer that must not
 * replace a newer event nor be shared with those who ask after a change, `elapsed` moving on while a bot plays, and nothing trusted while the bus
 * is down; one bot's GET answered from it; and whether a bot was last heard connected, which a play
 * trusts to skip asking for its status. Listing through HTTP: tests/api/bots-list.test.ts.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BotClient } from '../../api/bots/bot-client';
import { BotStatusView, ENTRY_TTL_MS } from '../../api/bots/status-view';
import type { ListedBot } from '../../api/bots/stored-bots';
import { ApiError } from '../../api/errors';
import { InProcessBus } from '../../shared/bus/in-process-bus';
import { botStateSubject } from '../../shared/bus/subjects';
import type { BotStatus } from '../../shared/domain/schemas';
import { insertBot, setupAdmin } from '../../testkit/accounts';
import { startTestApp, type TestApp } from '../../testkit/test-app';

/** The in-process bus, counting status probes and able to hold their replies back on the way. */
class WatchedBus extends InProcessBus {
  statusProbes = 0;
  held: Promise<void> | undefined;
  override async request(...args: Parameters<InProcessBus['request']>): Promise<unknown> {
    const isProbe = (args[1] as { op?: string } | null)?.op === 'status';
    if (isProbe) this.statusProbes++;
    const reply = await super.request(...args);
    if (isProbe) await this.held;
    return reply;
  }
}

const ACTOR = { id: 'tester', username: 'tester', role: 'admin' } as const;
const settle = () => new Promise((r) => setTimeout(r, 20));

let t: TestApp;
let bus: WatchedBus;
let clock = 0;
let view: BotStatusView;
let client: BotClient;
const listed = (id: string): ListedBot => ({ id, name: 'Stored name', volume: 33, playMode: 'seq' });

beforeAll(async () => {
  bus = new WatchedBus();
  t = await startTestApp({ bus });
  client = new BotClient(t);
  view = new BotStatusView(bus, client, { now: () => clock });
});
afterAll(() => t.close());

/** Publishes a bot's state as its daemon would, and waits for it to arrive. */
async function publishState(status: BotStatus): Promise<void> {
  bus.publish(botStateSubject(status.id), { bot: status, queueVersion: 1 });
  await settle();
}

const playing = (id: string, extra: Partial<BotStatus> = {}): BotStatus => ({
  id,
  name: 'Heard name',
  connected: true,
  playing: true,
  paused: false,
  currentSong: null,
  queueSize: 1,
  volume: 40,
  playMode: 'loop',
  elapsed: 10,
  effectiveDuration: 200,
  skipVotes: { votes: 0, needed: 0 },
  listeners: 0,
  ...extra,
});

describe('the bot-status view', () => {
  it('answers from a state event without asking the daemon', async () => {
    const botId = await insertBot(t);
    await publishState(playing(botId));
    const before = bus.statusProbes;
    expect(await view.statusOf(listed(botId), ACTOR)).toEqual(playing(botId));
    expect(bus.statusProbes).toBe(before);
  });

  it('gives one bot’s status as heard while it is fresh, and nothing once it is old or unanswered', async () => {
    const botId = await insertBot(t);
    expect(view.freshStatus(botId)).toBeUndefined();
    await publishState(playing(botId, { elapsed: 10 }));
    clock += 300;
    expect(view.freshStatus(botId)).toEqual(playing(botId, { elapsed: 10.3 }));
    clock += ENTRY_TTL_MS;
    expect(view.freshStatus(botId)).toBeUndefined();
    // A probe that found no daemon tells nothing about the bot: only its daemon could (404 or 503).
    const unowned = randomUUID();
    await view.statusOf(listed(unowned), ACTOR);
    expect(view.freshStatus(unowned)).toBeUndefined();
  });

  it('answers GET /api/bot/{id} from what was heard within a second, asking no daemon', async () => {
    const admin = await setupAdmin(t);
    const botId = await insertBot(t);
    const asked = () => admin.api.GET('/api/bot/{id}', { params: { path: { id: botId } } });
    const probesBefore = bus.statusProbes;
    expect((await asked()).data).toMatchObject({ id: botId, connected: false });
    expect(bus.statusProbes - probesBefore).toBe(1);
    await publishState(playing(botId, { volume: 61 }));
    const heard = await Promise.all(Array.from({ length: 20 }, asked));
    for (const answer of heard) expect(answer.data).toMatchObject({ id: botId, volume: 61, connected: true });
    expect(bus.statusProbes - probesBefore).toBe(1);
  });

  it('asks the daemon once for a bot it has not heard of, however many ask at once', async () => {
    const botId = await insertBot(t, 'Fresh');
    const before = bus.statusProbes;
    const answers = await Promise.all(Array.from({ length: 10 }, () => view.statusOf(listed(botId), ACTOR)));
    expect(bus.statusProbes - before).toBe(1);
    for (const answer of answers)
      expect(answer).toMatchObject({ id: botId, name: 'Fresh', connected: false });
    // The answer is kept like an event.
    await view.statusOf(listed(botId), ACTOR);
    expect(bus.statusProbes - before).toBe(1);
  });

  it('moves a playing bot’s position on with time, up to the track’s end; not a paused one’s', async () => {
    const botId = await insertBot(t);
    await publishState(playing(botId, { elapsed: 10, effectiveDuration: 10.3 }));
    clock += 200;
    expect((await view.statusOf(listed(botId), ACTOR)).elapsed).toBe(10.2);
    clock += 200;
    expect((await view.statusOf(listed(botId), ACTOR)).elapsed).toBe(10.3);
    await publishState(playing(botId, { elapsed: 10, paused: true }));
    clock += 500;
    expect((await view.statusOf(listed(botId), ACTOR)).elapsed).toBe(10);
  });

  it('asks again after a change through this process, and after a bots event', async () => {
    const botId = await insertBot(t);
    await publishState(playing(botId, { volume: 40 }));
    expect((await view.statusOf(listed(botId), ACTOR)).volume).toBe(40);

    // The reply to the change comes before the daemon's state event: the next answer must not be 40.
    let before = bus.statusProbes;
    await client.call(botId, 'volume', { volume: 70 }, ACTOR);
    expect((await view.statusOf(listed(botId), ACTOR)).volume).toBe(70);
    expect(bus.statusProbes - before).toBe(1);

    // A bot no daemon runs: what was heard of it stands until a bots event drops it.
    const unowned = randomUUID();
    await publishState(playing(unowned));
    expect((await view.statusOf(listed(unowned), ACTOR)).connected).toBe(true);
    bus.publish('bots.events', { type: 'botUpdated', botId: unowned });
    await settle();
    before = bus.statusProbes;
    expect((await view.statusOf(listed(unowned), ACTOR)).connected).toBe(false);
    expect(bus.statusProbes - before).toBe(1);
  });

  it('keeps a state event over a probe answer that was sent before it', async () => {
    const botId = await insertBot(t);
    let release = () => {};
    bus.held = new Promise<void>((r) => {
      release = r;
    });
    const probed = view.statusOf(listed(botId), ACTOR);
    await settle();
    clock += 1;
    await publishState(playing(botId, { volume: 99 }));
    bus.held = undefined;
    release();
    // The probe's own caller gets the daemon's answer; later callers get the newer event.
    expect((await probed).connected).toBe(false);
    expect((await view.statusOf(listed(botId), ACTOR)).volume).toBe(99);
  });

  it('does not hand a probe sent before a change to those who ask after it', async () => {
    const botId = await insertBot(t);
    let release = () => {};
    bus.held = new Promise<void>((r) => {
      release = r;
    });
    const before = bus.statusProbes;
    const early = view.statusOf(listed(botId), ACTOR);
    await settle();
    await client.call(botId, 'volume', { volume: 80 }, ACTOR);
    const late = view.statusOf(listed(botId), ACTOR);
    bus.held = undefined;
    release();
    expect((await early).volume).not.toBe(80);
    expect((await late).volume).toBe(80);
    expect(bus.statusProbes - before).toBe(2);
  });

  it('asks again once what it heard is ENTRY_TTL_MS old, so a stopped daemon’s bot shows disconnected', async () => {
    const botId = await insertBot(t);
    await publishState(playing(botId));
    await t.daemon?.stop();
    clock += ENTRY_TTL_MS - 1;
    expect((await view.statusOf(listed(botId), ACTOR)).connected).toBe(true);
    clock += 1;
    expect(await view.statusOf(listed(botId), ACTOR)).toEqual({
      id: botId,
      name: 'Stored name',
      connected: false,
      playing: false,
      paused: false,
      currentSong: null,
      queueSize: 0,
      volume: 33,
      playMode: 'seq',
      elapsed: 0,
      skipVotes: { votes: 0, needed: 0 },
      listeners: 0,
    });
  });

  it('says a bot is connected as last heard however long ago, until something puts that in doubt', async () => {
    const botId = await insertBot(t);
    expect(view.heardConnected(botId)).toBe(false);
    await publishState(playing(botId));
    // A play trusts it past the entry's age: the daemon that gets the play answers for the bot anyway.
    clock += 10 * ENTRY_TTL_MS;
    expect(view.heardConnected(botId)).toBe(true);
    await publishState(playing(botId, { connected: false, playing: false }));
    expect(view.heardConnected(botId)).toBe(false);

    await publishState(playing(botId));
    await client.call(botId, 'volume', { volume: 70 }, ACTOR).catch(() => undefined);
    expect(view.heardConnected(botId)).toBe(false);
    await publishState(playing(botId));
    bus.publish('bots.events', { type: 'botUpdated', botId });
    await settle();
    expect(view.heardConnected(botId)).toBe(false);
  });

  it('trusts nothing it heard once the bus is down', async () => {
    const botId = await insertBot(t);
    await publishState(playing(botId));
    await bus.close();
    const answer = view.statusOf(listed(botId), ACTOR);
    await expect(answer).rejects.toBeInstanceOf(ApiError);
    await expect(answer).rejects.toMatchObject({ status: 503 });
    expect(view.heardConnected(botId)).toBe(false);
  });
});
