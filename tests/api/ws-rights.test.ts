/**
 * An open /ws follows its account's rights (issue 36): with real `ws` clients against the real app,
 * every change that ends a credential closes the sockets it authenticated with 4401 within a second
 * (account deleted, password reset by an admin, own password changed, API key revoked, logout), and
 * every change of rights re-scopes them: a narrowed grant or a demotion removes bots and stops their
 * pushes, a widened grant starts them. Sockets of other credentials stay open. Across two api
 * processes sharing one database and a real nats-server, a change made on one reaches sockets on the
 * other.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../api/app';
import { listen, type RunningServer } from '../../api/server';
import { NatsBus } from '../../shared/bus/nats-bus';
import { botStateSubject } from '../../shared/bus/subjects';
import { openDb } from '../../shared/db/client';
import { WS_CLOSE_SIGNED_OUT } from '../../shared/ws-messages';
import {
  createKey,
  createMember,
  insertBot,
  login,
  PASSWORD,
  type Session,
  setupAdmin,
} from '../../testkit/accounts';
import { type NatsServerHandle, startNatsServer } from '../../testkit/nats-server';
import { startTestApp, type TestApp } from '../../testkit/test-app';
import { connectedStatus } from '../helpers/bot-status';
import { connect, type Socket } from '../helpers/ws-client';

/** How soon a socket must follow a change, after the change's HTTP answer. */
const FOLLOW_MS = 1000;

const statusOf = (id: string, name: string) => connectedStatus(id, { name });

const path = (id: string) => ({ params: { path: { id } } });
const cookie = (s: Session) => ({ cookie: s.jar.header()! });
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

/** Resolves with the close code once `socket` closed, failing when that took more than FOLLOW_MS after `since`. */
async function closedSoon(socket: Socket, since: number): Promise<number> {
  const code = await Promise.race([
    socket.closed,
    new Promise<never>((_, reject) => setTimeout(() => reject(new Error('socket still open')), FOLLOW_MS)),
  ]);
  expect(socket.closedAt! - since).toBeLessThanOrEqual(FOLLOW_MS);
  return code;
}

async function opened(url: string, headers: Record<string, string>): Promise<Socket> {
  const socket = await connect(url, headers);
  await socket.next((m) => m.type === 'hello');
  return socket;
}

describe('sockets follow a change of rights (one api process)', () => {
  let t: TestApp;
  let wsUrl: string;
  let admin: Session;
  let botA: string;
  let botB: string;

  beforeAll(async () => {
    t = await startTestApp({ withDaemon: false });
    wsUrl = `${(await t.listen()).replace('http', 'ws')}/ws`;
    admin = await setupAdmin(t);
    botA = await insertBot(t, 'Alpha');
    botB = await insertBot(t, 'Beta');
  });
  afterAll(() => t.close());

  /**
   * Publishes a state of `unseen`, then of `seen`, and waits for `seen`'s: a push of `unseen` would
   * have arrived by then.
   */
  async function pushBoth(socket: Socket, seen = botA, unseen = botB): Promise<void> {
    const from = socket.messages.length;
    t.bus.publish(botStateSubject(unseen), { bot: statusOf(unseen, 'Unseen'), queueVersion: 1 });
    t.bus.publish(botStateSubject(seen), { bot: statusOf(seen, 'Seen'), queueVersion: 1 });
    await socket.next((m) => socket.messages.indexOf(m) >= from && m.type === 'status' && m.bot.id === seen);
  }
  const pushedSince = (socket: Socket, from: number, botId: string) =>
    socket.messages.slice(from).some((m) => m.type === 'status' && m.bot.id === botId);

  it('a narrowed grant removes the bot from the socket and stops its pushes', async () => {
    const member = await createMember(t, admin, { bots: [botA, botB] });
    const socket = await opened(wsUrl, cookie(member));
    const put = await admin.api.PUT('/api/users/{id}/permissions', {
      ...path(member.id),
      body: { capabilities: ['player.control'], bots: [botA] },
    });
    expect(put.response.status).toBe(200);
    expect(await socket.next((m) => m.type === 'botRemoved', FOLLOW_MS)).toEqual({
      type: 'botRemoved',
      botId: botB,
    });
    const from = socket.messages.length;
    await pushBoth(socket);
    expect(pushedSince(socket, from, botB)).toBe(false);
    socket.ws.close();
  });

  it('a widened grant adds the bot to the socket and starts its pushes', async () => {
    const member = await createMember(t, admin, { bots: [botA] });
    const socket = await opened(wsUrl, cookie(member));
    await admin.api.PUT('/api/users/{id}/permissions', {
      ...path(member.id),
      body: { capabilities: ['player.control'], bots: 'all' },
    });
    await socket.next((m) => m.type === 'status' && m.bot.id === botB, FOLLOW_MS);
    const from = socket.messages.length;
    await pushBoth(socket);
    expect(pushedSince(socket, from, botB)).toBe(true);
    socket.ws.close();
  });

  it('a demoted admin loses the bots it was not granted, and their pushes', async () => {
    // Granted Beta only: while an admin that grant is moot; once a member it is all there is.
    const other = await createMember(t, admin, { role: 'admin', bots: [botB] });
    const socket = await opened(wsUrl, cookie(other));
    expect(socket.messages[0]?.type === 'hello' && socket.messages[0].bots.length).toBe(2);
    const demoted = await admin.api.PATCH('/api/users/{id}/role', {
      ...path(other.id),
      body: { role: 'member' },
    });
    expect(demoted.response.status).toBe(204);
    expect(await socket.next((m) => m.type === 'botRemoved', FOLLOW_MS)).toEqual({
      type: 'botRemoved',
      botId: botA,
    });
    const from = socket.messages.length;
    await pushBoth(socket, botB, botA);
    expect(pushedSince(socket, from, botA)).toBe(false);
    socket.ws.close();
  });

  it('a deleted account: its sockets close with 4401, session and key alike', async () => {
    const member = await createMember(t, admin, { bots: [botA] });
    const bySession = await opened(wsUrl, cookie(member));
    const byKey = await opened(wsUrl, bearer(await createKey(member)));
    const bystander = await opened(wsUrl, cookie(admin));
    const deleted = await admin.api.DELETE('/api/users/{id}', path(member.id));
    expect(deleted.response.status).toBe(204);
    const since = Date.now();
    expect(await closedSoon(bySession, since)).toBe(WS_CLOSE_SIGNED_OUT);
    expect(await closedSoon(byKey, since)).toBe(WS_CLOSE_SIGNED_OUT);
    expect(bystander.ws.readyState).toBe(bystander.ws.OPEN);
    bystander.ws.close();
  });

  it('a password reset by an admin: the account’s sockets close with 4401', async () => {
    const member = await createMember(t, admin, { bots: [botA] });
    const bySession = await opened(wsUrl, cookie(member));
    const byKey = await opened(wsUrl, bearer(await createKey(member)));
    const reset = await admin.api.POST('/api/users/{id}/reset-password', {
      ...path(member.id),
      body: { newPassword: 'another good password' },
    });
    expect(reset.response.status).toBe(204);
    const since = Date.now();
    expect(await closedSoon(bySession, since)).toBe(WS_CLOSE_SIGNED_OUT);
    expect(await closedSoon(byKey, since)).toBe(WS_CLOSE_SIGNED_OUT);
  });

  it('an own password change: sockets of the other sessions close with 4401', async () => {
    const member = await createMember(t, admin, { bots: [botA] });
    const elsewhere = await login(t, member.username);
    const socket = await opened(wsUrl, cookie(elsewhere));
    const changed = await member.api.POST('/api/session/change-password', {
      body: { currentPassword: PASSWORD, newPassword: 'another good password' },
    });
    expect(changed.response.status).toBe(204);
    expect(await closedSoon(socket, Date.now())).toBe(WS_CLOSE_SIGNED_OUT);
  });

  it('a revoked API key: its sockets close with 4401, the account’s session socket stays', async () => {
    const member = await createMember(t, admin, { bots: [botA] });
    const key = await createKey(member);
    const byKey = await opened(wsUrl, bearer(key));
    const bySession = await opened(wsUrl, cookie(member));
    const { data } = await member.api.GET('/api/keys');
    const revoked = await member.api.DELETE('/api/keys/{id}', path(data!.keys[0]!.id));
    expect(revoked.response.status).toBe(200);
    expect(await closedSoon(byKey, Date.now())).toBe(WS_CLOSE_SIGNED_OUT);
    await pushBoth(bySession);
    expect(bySession.ws.readyState).toBe(bySession.ws.OPEN);
    bySession.ws.close();
  });

  it('a logout: that session’s socket closes with 4401, another session’s stays', async () => {
    const member = await createMember(t, admin, { bots: [botA] });
    const elsewhere = await login(t, member.username);
    const leaving = await opened(wsUrl, cookie(member));
    const staying = await opened(wsUrl, cookie(elsewhere));
    expect((await member.api.POST('/api/session/logout')).response.status).toBe(204);
    expect(await closedSoon(leaving, Date.now())).toBe(WS_CLOSE_SIGNED_OUT);
    await pushBoth(staying);
    expect(staying.ws.readyState).toBe(staying.ws.OPEN);
    staying.ws.close();
  });
});

describe('sockets follow a change made through another api process', () => {
  let nats: NatsServerHandle;
  let t: TestApp;
  let other: { server: RunningServer; bus: NatsBus; close(): void };
  let otherUrl: string;
  let admin: Session;

  beforeAll(async () => {
    nats = await startNatsServer();
    t = await startTestApp({ bus: await NatsBus.connect({ url: nats.url }), withDaemon: false });
    admin = await setupAdmin(t);
    // A second api process in all but the process: its own app, connection to the database file and bus.
    const bus = await NatsBus.connect({ url: nats.url });
    const db = openDb({ url: t.config.databaseUrl });
    const server = await listen(createApp({ db, bus, config: t.config, version: 'test' }), '127.0.0.1', 0);
    other = { server, bus, close: () => db.$client.close() };
    otherUrl = `ws://127.0.0.1:${server.port}/ws`;
  });
  afterAll(async () => {
    await other?.server.close();
    await other?.bus.close();
    other?.close();
    await t?.close();
    await nats?.stop();
  });

  it('a key revoked through one process closes its socket on the other within a second', async () => {
    const member = await createMember(t, admin);
    const key = await createKey(member);
    const socket = await opened(otherUrl, bearer(key));
    const { data } = await member.api.GET('/api/keys');
    expect((await member.api.DELETE('/api/keys/{id}', path(data!.keys[0]!.id))).response.status).toBe(200);
    expect(await closedSoon(socket, Date.now())).toBe(WS_CLOSE_SIGNED_OUT);
  });
});
