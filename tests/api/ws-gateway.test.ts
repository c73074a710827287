/**
 * The WebSocket gateway with real `ws` clients on a real port: authentication and the cross-site check
 * on the upgrade, hello/status/queue/botRemoved frames, per-principal visibility, guest sockets closed
 * or re-scoped live, and one bus subscription per process however many sockets watch.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENTRY_TTL_MS } from '../../api/bots/status-view';
import type { Bus } from '../../shared/bus/bus';
import { InProcessBus } from '../../shared/bus/in-process-bus';
import type { BotStateEvent } from '../../shared/bus/messages';
import { botStateSubject } from '../../shared/bus/subjects';
import { WS_CLOSE_SIGNED_OUT } from '../../shared/ws-messages';
import { createKey, createMember, insertBot, type Session, setupAdmin } from '../../testkit/accounts';
import { startTestApp, type TestApp } from '../../testkit/test-app';
import { connectedStatus } from '../helpers/bot-status';
import { connect } from '../helpers/ws-client';

/** Counts live subscriptions, to show sockets share them. */
class CountingBus extends InProcessBus {
  live = 0;
  override subscribe(...args: Parameters<Bus['subscribe']>) {
    this.live++;
    const sub = super.subscribe(...args);
    return {
      unsubscribe: () => {
        this.live--;
        sub.unsubscribe();
      },
    };
  }
}

const statusOf = (id: string, name: string, playing = true) =>
  connectedStatus(id, { name, playing, queueSize: 1, playMode: 'loop', elapsed: 3 });

describe('WebSocket gateway', () => {
  let t: TestApp;
  let bus: CountingBus;
  let wsUrl: string;
  let admin: Session;
  let botA: string;
  let botB: string;
  const cookie = (s: Session) => ({ cookie: s.jar.header()! });

  beforeAll(async () => {
    bus = new CountingBus();
    t = await startTestApp({ bus });
    wsUrl = `${(await t.listen()).replace('http', 'ws')}/ws`;
    admin = await setupAdmin(t);
    botA = await insertBot(t, 'Alpha');
    botB = await insertBot(t, 'Beta');
  });
  afterAll(() => t.close());

  it('refuses unauthenticated and cross-site upgrades', async () => {
    await expect(connect(wsUrl, {})).rejects.toThrow('upgrade refused: 401');
    await expect(connect(wsUrl, { ...cookie(admin), origin: 'https://evil.example' })).rejects.toThrow(
      'upgrade refused: 403',
    );
    await expect(connect(wsUrl, { authorization: 'Bearer tsmb_nope' })).rejects.toThrow(
      'upgrade refused: 401',
    );
  });

  it('greets with the visible bots and forwards status and queue of those bots only', async () => {
    const member = await createMember(t, admin, { bots: [botA] });
    const adminSocket = await connect(wsUrl, cookie(admin));
    const memberSocket = await connect(wsUrl, { authorization: `Bearer ${await createKey(member)}` });
    const adminHello = await adminSocket.next((m) => m.type === 'hello');
    expect(adminHello.type === 'hello' && adminHello.bots.map((b) => b.name)).toEqual(['Alpha', 'Beta']);
    const memberHello = await memberSocket.next((m) => m.type === 'hello');
    expect(memberHello.type === 'hello' && memberHello.bots.map((b) => b.name)).toEqual(['Alpha']);

    const song = {
      id: 's1',
      name: 'Song',
      artist: 'A',
      album: 'B',
      duration: 100,
      coverUrl: '',
      platform: 'local' as const,
    };
    const stateB: BotStateEvent = { bot: statusOf(botB, 'Beta'), queueVersion: 1 };
    const stateA: BotStateEvent = { bot: statusOf(botA, 'Alpha'), queueVersion: 2, queue: [song] };
    t.bus.publish(botStateSubject(botB), stateB);
    t.bus.publish(botStateSubject(botA), stateA);
    expect(await adminSocket.next((m) => m.type === 'status' && m.bot.id === botB)).toEqual({
      type: 'status',
      bot: stateB.bot,
    });
    expect(await memberSocket.next((m) => m.type === 'queue')).toEqual({
      type: 'queue',
      botId: botA,
      queue: [song],
    });
    await memberSocket.next((m) => m.type === 'status' && m.bot.id === botA);
    expect(memberSocket.messages.some((m) => m.type === 'status' && m.bot.id === botB)).toBe(false);
    adminSocket.ws.close();
    memberSocket.ws.close();
  });

  it('uses one bus subscription per subject family however many sockets are open', async () => {
    const before = bus.live;
    const sockets = await Promise.all(Array.from({ length: 10 }, () => connect(wsUrl, cookie(admin))));
    await Promise.all(sockets.map((s) => s.next((m) => m.type === 'hello')));
    expect(bus.live).toBe(before);
    t.bus.publish(botStateSubject(botA), { bot: statusOf(botA, 'Alpha', false), queueVersion: 3 });
    await Promise.all(sockets.map((s) => s.next((m) => m.type === 'status' && !m.bot.playing)));
    for (const s of sockets) s.ws.close();
  });

  it('tells every socket when a bot is removed', async () => {
    const socket = await connect(wsUrl, cookie(admin));
    await socket.next((m) => m.type === 'hello');
    const doomed = await insertBot(t, 'Doomed');
    await admin.api.DELETE('/api/bot/{id}', { params: { path: { id: doomed } } });
    expect(await socket.next((m) => m.type === 'botRemoved')).toEqual({ type: 'botRemoved', botId: doomed });
    socket.ws.close();
  });

  it('re-scopes guest sockets when the guest bot list narrows, and closes them when guest mode is off', async () => {
    await admin.api.POST('/api/bot/settings', { body: { guestMode: { enabled: true, bots: [botA, botB] } } });
    const guest = t.browser();
    await guest.api.POST('/api/session/guest');
    const socket = await connect(wsUrl, { cookie: guest.jar.header()! });
    const hello = await socket.next((m) => m.type === 'hello');
    expect(hello.type === 'hello' && hello.bots.map((b) => b.name)).toEqual(['Alpha', 'Beta']);

    await admin.api.POST('/api/bot/settings', { body: { guestMode: { bots: [botA] } } });
    expect(await socket.next((m) => m.type === 'botRemoved')).toEqual({ type: 'botRemoved', botId: botB });
    t.bus.publish(botStateSubject(botB), { bot: statusOf(botB, 'Beta'), queueVersion: 9 });
    t.bus.publish(botStateSubject(botA), { bot: statusOf(botA, 'Alpha'), queueVersion: 9 });
    await socket.next((m) => m.type === 'status' && m.bot.id === botA);
    expect(socket.messages.some((m) => m.type === 'status' && m.bot.id === botB)).toBe(false);

    await admin.api.POST('/api/bot/settings', { body: { guestMode: { enabled: false } } });
    expect(await socket.closed).toBe(WS_CLOSE_SIGNED_OUT);
  });

  it('still greets when no daemon answers, showing bots as disconnected', async () => {
    await t.daemon?.stop();
    // The states published above (connected) stand for ENTRY_TTL_MS; then the daemon is asked again.
    await new Promise((r) => setTimeout(r, ENTRY_TTL_MS));
    const socket = await connect(wsUrl, cookie(admin));
    const hello = await socket.next((m) => m.type === 'hello');
    expect(hello.type === 'hello' && hello.bots.every((b) => !b.connected)).toBe(true);
    socket.ws.close();
  });
});
