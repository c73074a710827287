import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NatsBus } from '../../shared/bus/nats-bus';
import { bots } from '../../shared/db/schema';
import { createMember, insertBot, type Session, setupAdmin } from '../../testkit/accounts';
import { type NatsServerHandle, startNatsServer } from '../../testkit/nats-server';
import { startTestApp, type TestApp } from '../../testkit/test-app';

describe('GET /api/bot through the daemon (in-process bus)', () => {
  let t: TestApp;
  let admin: Session;
  let first: string;
  let second: string;
  beforeAll(async () => {
    t = await startTestApp();
    admin = await setupAdmin(t);
    first = await insertBot(t, 'First');
    second = await insertBot(t, 'Second');
  });
  afterAll(() => t.close());

  it('lists every bot for an admin, with status answered by the daemon', async () => {
    // The daemon reads volume from its own copy of the row: change it behind the api's back and
    // tell the daemon, then the list must show the daemon's value.
    await t.db.update(bots).set({ volume: 77 }).where(eq(bots.id, first));
    t.bus.publish('bots.events', { type: 'botUpdated', botId: first });
    await new Promise((r) => setTimeout(r, 20));
    const { data, response } = await admin.api.GET('/api/bot');
    expect(response.status).toBe(200);
    expect(data?.bots.map((b) => b.name)).toEqual(['First', 'Second']);
    expect(data?.bots[0]).toMatchObject({
      id: first,
      connected: false,
      playing: false,
      volume: 77,
      playMode: 'seq',
    });
    expect(t.daemon?.ownedBotIds().sort()).toEqual([first, second].sort());
  });

  it('shows a member only the bots granted to them', async () => {
    const member = await createMember(t, admin, { bots: [second] });
    const { data } = await member.api.GET('/api/bot');
    expect(data?.bots.map((b) => b.id)).toEqual([second]);
  });

  it('shows a change made through the api in the very next listing', async () => {
    for (const volume of [61, 62, 63]) {
      const set = await admin.api.POST('/api/player/{botId}/volume', {
        params: { path: { botId: first } },
        body: { volume },
      });
      expect(set.response.status).toBe(200);
      const { data } = await admin.api.GET('/api/bot');
      expect(data?.bots.find((b) => b.id === first)?.volume).toBe(volume);
    }
  });

  it('shows a bot no daemon owns as disconnected instead of failing the list', async () => {
    await t.daemon?.stop();
    const { data, response } = await admin.api.GET('/api/bot');
    expect(response.status).toBe(200);
    expect(data?.bots.map((b) => b.connected)).toEqual([false, false]);
  });
});

describe('GET /api/bot over NATS when the bus goes down', () => {
  let nats: NatsServerHandle;
  let t: TestApp;
  beforeAll(async () => {
    nats = await startNatsServer();
    t = await startTestApp({ bus: await NatsBus.connect({ url: nats.url }) });
  });
  afterAll(async () => {
    await t.close();
    await nats.stop();
  });

  it('answers 503 {error} within 5 seconds once nats-server is killed', async () => {
    const admin = await setupAdmin(t);
    await insertBot(t, 'Over NATS');
    const before = await admin.api.GET('/api/bot');
    expect(before.response.status).toBe(200);
    expect(before.data?.bots).toHaveLength(1);

    await nats.stop();
    const started = Date.now();
    // Statuses heard just before stand until the client has noticed the lost connection.
    let answer = await admin.api.GET('/api/bot');
    while (answer.response.status === 200 && Date.now() - started < 5000) {
      await new Promise((r) => setTimeout(r, 20));
      answer = await admin.api.GET('/api/bot');
    }
    expect(answer.response.status).toBe(503);
    expect(answer.error).toMatchObject({ error: 'the message bus is unavailable' });
    expect(Date.now() - started).toBeLessThan(5000);
  });
});

describe('GET /api/bot/{id}', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(() => t.close());

  it('answers from the daemon, 404 for an unknown bot, 403 before existence for members, 503 with no daemon', async () => {
    const admin = await setupAdmin(t);
    const botId = await insertBot(t, 'Solo');
    const ok = await admin.api.GET('/api/bot/{id}', { params: { path: { id: botId } } });
    expect(ok.data).toMatchObject({ id: botId, name: 'Solo', connected: false });
    const missing = await admin.api.GET('/api/bot/{id}', { params: { path: { id: 'nope' } } });
    expect(missing.response.status).toBe(404);
    const member = await createMember(t, admin);
    expect(
      (await member.api.GET('/api/bot/{id}', { params: { path: { id: 'nope' } } })).response.status,
    ).toBe(403);
    expect((await member.api.GET('/api/bot/{id}', { params: { path: { id: botId } } })).response.status).toBe(
      403,
    );

    await t.daemon?.stop();
    const started = Date.now();
    const orphan = await admin.api.GET('/api/bot/{id}', { params: { path: { id: botId } } });
    expect(orphan.response.status).toBe(503);
    expect(orphan.error).toMatchObject({ error: 'no daemon is running this bot right now' });
    expect(Date.now() - started).toBeLessThan(5000);
  });
});
