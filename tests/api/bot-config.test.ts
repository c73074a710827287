import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { BOTS_EVENTS } from '../../shared/bus/subjects';
import { botGrants, bots } from '../../shared/db/schema';
import { CLIENT_VERSION_CHOICES } from '../../shared/domain/client-versions';
import { createMember, type Session, withAdminApp } from '../../testkit/accounts';
import type { TestApp } from '../../testkit/test-app';
import { PNG_1X1 } from '../helpers/png';

let t: TestApp;
let admin: Session;
withAdminApp((app, session) => {
  t = app;
  admin = session;
});

const id = (botId: string) => ({ params: { path: { id: botId } } });

async function create(name = 'Lounge', extra: Record<string, unknown> = {}) {
  const res = await admin.api.POST('/api/bot', {
    body: { name, serverAddress: 'ts.example.org', nickname: 'DJ Bot', ...extra } as never,
  });
  expect(res.response.status).toBe(201);
  return res.data!;
}

describe('bot configuration', () => {
  it('creates a bot the daemon takes on at once, with the default port', async () => {
    const status = await create('Lounge');
    expect(status).toMatchObject({
      name: 'Lounge',
      connected: false,
      playing: false,
      volume: 50,
      playMode: 'seq',
    });
    expect(t.daemon?.ownedBotIds()).toContain(status.id);
    const config = await admin.api.GET('/api/bot/{id}/config', id(status.id));
    expect(config.data).toEqual({
      id: status.id,
      name: 'Lounge',
      serverAddress: 'ts.example.org',
      serverPort: 9987,
      nickname: 'DJ Bot',
      defaultChannel: null,
      channelId: null,
      autoStart: false,
      clientVersion: 'auto',
      hasServerPassword: false,
      hasChannelPassword: false,
      hasAvatar: false,
    });
  });

  it('validates the configuration with field names', async () => {
    const cases: [Record<string, unknown>, RegExp][] = [
      [{ serverAddress: 'x', nickname: 'Bot' }, /^name: /],
      [{ name: 'a', serverAddress: 'x', nickname: 'Bo' }, /^nickname: /],
      [{ name: 'a', serverAddress: 'x', nickname: 'Bot', serverPort: 70000 }, /^serverPort: /],
      [{ name: 'a', serverAddress: 'bad host!', nickname: 'Bot' }, /^serverAddress: /],
      [{ name: 'a', serverAddress: '127.0.0.1:9987', nickname: 'Bot' }, /^serverAddress: .*serverPort/],
      [{ name: 'a', serverAddress: 'x', nickname: 'Bot', identity: 'mine' }, /unknown field/],
    ];
    for (const [body, message] of cases) {
      const res = await admin.api.POST('/api/bot', { body: body as never });
      expect(res.response.status).toBe(400);
      expect(res.error?.error).toMatch(message);
    }
  });

  it('keeps a client version from the table, and refuses one it does not have naming the allowed ones', async () => {
    const status = await create('Versioned', { clientVersion: '6.0.0-beta2-windows' });
    const config = await admin.api.GET('/api/bot/{id}/config', id(status.id));
    expect(config.data?.clientVersion).toBe('6.0.0-beta2-windows');
    const stored = await t.db.query.bots.findFirst({ where: eq(bots.id, status.id) });
    expect(stored?.clientVersion).toBe('6.0.0-beta2-windows');

    const bad = await admin.api.PUT('/api/bot/{id}', {
      ...id(status.id),
      body: { clientVersion: '3.5.0' } as never,
    });
    expect(bad.response.status).toBe(400);
    expect(bad.error?.error).toBe(
      `clientVersion: clientVersion must be one of ${CLIENT_VERSION_CHOICES.join(', ')}`,
    );
    expect(bad.error?.error).toContain('auto, 3.x-windows');

    await admin.api.PUT('/api/bot/{id}', { ...id(status.id), body: { clientVersion: 'auto' } });
    expect((await admin.api.GET('/api/bot/{id}/config', id(status.id))).data?.clientVersion).toBe('auto');
  });

  it('takes an IPv6 address, whose colons are not a port', async () => {
    const status = await create('Six', { serverAddress: '::1' });
    const config = await admin.api.GET('/api/bot/{id}/config', id(status.id));
    expect(config.data?.serverAddress).toBe('::1');
  });

  it('never returns identity, query key or passwords', async () => {
    const status = await create('Secret', { serverPassword: 's3rver', channelPassword: 'ch4nnel' });
    await t.db
      .update(bots)
      .set({ identity: 'PRIVATE-IDENTITY', queryKey: 'QUERY-KEY' })
      .where(eq(bots.id, status.id));
    const config = await admin.api.GET('/api/bot/{id}/config', id(status.id));
    const text = JSON.stringify(config.data);
    for (const secret of ['PRIVATE-IDENTITY', 'QUERY-KEY', 's3rver', 'ch4nnel'])
      expect(text).not.toContain(secret);
    expect(config.data).toMatchObject({ hasServerPassword: true, hasChannelPassword: true });
  });

  it('updates only the fields sent, clears with "", and the daemon follows', async () => {
    const status = await create('Before', { defaultChannel: 'Music' });
    const put = await admin.api.PUT('/api/bot/{id}', {
      ...id(status.id),
      body: { name: 'After', defaultChannel: '' },
    });
    expect(put.data).toEqual({ success: true });
    const config = await admin.api.GET('/api/bot/{id}/config', id(status.id));
    expect(config.data).toMatchObject({ name: 'After', nickname: 'DJ Bot', defaultChannel: null });
    await new Promise((r) => setTimeout(r, 20));
    expect((await admin.api.GET('/api/bot/{id}', id(status.id))).data?.name).toBe('After');
  });

  it('deletes a bot: grants pruned, daemon lets go, botRemoved announced', async () => {
    const status = await create('Doomed');
    const member = await createMember(t, admin, { capabilities: ['bot.manage'], bots: [status.id] });
    const events: unknown[] = [];
    t.bus.subscribe(BOTS_EVENTS, (e) => events.push(e));
    const del = await member.api.DELETE('/api/bot/{id}', id(status.id));
    expect(del.response.status).toBe(204);
    await new Promise((r) => setTimeout(r, 20));
    expect(events).toContainEqual({ type: 'botRemoved', botId: status.id });
    expect(await t.db.select().from(botGrants).where(eq(botGrants.botId, status.id))).toEqual([]);
    expect(t.daemon?.ownedBotIds()).not.toContain(status.id);
    expect((await admin.api.GET('/api/bot/{id}', id(status.id))).response.status).toBe(404);
  });

  it('is gone once the delete has answered: the daemon let it go, a GET right after is a 404', async () => {
    const answers: number[] = [];
    for (let round = 0; round < 20; round++) {
      const status = await create(`Brief${round}`);
      expect((await admin.api.GET('/api/bot/{id}', id(status.id))).response.status).toBe(200);
      expect((await admin.api.DELETE('/api/bot/{id}', id(status.id))).response.status).toBe(204);
      expect(t.daemon?.ownedBotIds()).not.toContain(status.id);
      answers.push((await admin.api.GET('/api/bot/{id}', id(status.id))).response.status);
    }
    expect(answers.filter((status) => status !== 404)).toEqual([]);
  });

  it('needs bot.manage, and a grant for a specific bot', async () => {
    const status = await create('Guarded');
    const player = await createMember(t, admin, { capabilities: ['player.control'], bots: [status.id] });
    expect(
      (await player.api.POST('/api/bot', { body: { name: 'x', serverAddress: 'x', nickname: 'xyz' } }))
        .response.status,
    ).toBe(403);
    const manager = await createMember(t, admin, { capabilities: ['bot.manage'], bots: [] });
    expect((await manager.api.GET('/api/bot/{id}/config', id(status.id))).response.status).toBe(403);
    expect((await manager.api.DELETE('/api/bot/{id}', id(status.id))).response.status).toBe(403);
  });
});

describe('bot avatar', () => {
  it('stores an image by its bytes, serves it, and removes it', async () => {
    const status = await create('Pictured');
    // Declared as JPEG, but the bytes are PNG: the bytes win.
    const put = await admin.api.PUT('/api/bot/{id}/avatar', {
      ...id(status.id),
      body: { dataUrl: `data:image/jpeg;base64,${PNG_1X1.toString('base64')}` },
    });
    expect(put.data).toEqual({ path: `/api/bot/${status.id}/avatar` });
    const get = await admin.api.GET('/api/bot/{id}/avatar', { ...id(status.id), parseAs: 'arrayBuffer' });
    expect(get.response.headers.get('content-type')).toBe('image/png');
    expect(Buffer.from(get.data as ArrayBuffer).equals(PNG_1X1)).toBe(true);
    const hasAvatar = async () =>
      (await admin.api.GET('/api/bot/{id}/config', id(status.id))).data?.hasAvatar;
    expect(await hasAvatar()).toBe(true);
    expect((await admin.api.DELETE('/api/bot/{id}/avatar', id(status.id))).response.status).toBe(204);
    expect((await admin.api.GET('/api/bot/{id}/avatar', id(status.id))).response.status).toBe(404);
    expect(await hasAvatar()).toBe(false);
  });

  it('refuses other formats, oversize images and malformed data URLs', async () => {
    const status = await create('Picky');
    const gif = Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1');
    const big = Buffer.concat([PNG_1X1, Buffer.alloc(201 * 1024)]);
    const cases: [string, RegExp][] = [
      [`data:image/gif;base64,${gif.toString('base64')}`, /PNG, JPEG or WebP/],
      [`data:image/png;base64,${big.toString('base64')}`, /200 KB/],
      ['not a data url', /data URL/],
    ];
    for (const [dataUrl, message] of cases) {
      const res = await admin.api.PUT('/api/bot/{id}/avatar', { ...id(status.id), body: { dataUrl } });
      expect(res.response.status).toBe(400);
      expect(res.error?.error).toMatch(message);
    }
  });
});
