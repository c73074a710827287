import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { apiKeys } from '../../shared/db/schema';
import { createKey, createMember, type Session, withAdminApp } from '../../testkit/accounts';
import type { TestApp } from '../../testkit/test-app';

let t: TestApp;
let admin: Session;
withAdminApp((app, session) => {
  t = app;
  admin = session;
});

describe('API keys', () => {
  it('returns the raw key once and stores only its hash and display prefix', async () => {
    const member = await createMember(t, admin);
    const { data, response } = await member.api.POST('/api/keys', { body: { name: 'my script' } });
    expect(response.status).toBe(201);
    const rawKey = data!.rawKey;
    expect(rawKey).toMatch(/^tsmb_[0-9A-Za-z]{32,}$/);
    expect(data!.key).toMatchObject({
      name: 'my script',
      keyPrefix: rawKey.slice(0, 12),
      userId: member.id,
      lastUsedAt: null,
    });
    const row = await t.db.query.apiKeys.findFirst({ where: eq(apiKeys.id, data!.key.id) });
    expect(JSON.stringify(row)).not.toContain(rawKey);
    const list = await member.api.GET('/api/keys');
    expect(JSON.stringify(list.data)).not.toContain(rawKey);
    expect(list.data?.keys).toHaveLength(1);
    expect(list.data?.keys[0]).not.toHaveProperty('username');
  });

  it('records api_key.created in the audit log, with who made the key', async () => {
    const member = await createMember(t, admin);
    await member.api.POST('/api/keys', { body: { name: 'audited' } });
    const audit = await admin.api.GET('/api/audit');
    expect(audit.data?.entries[0]).toMatchObject({
      action: 'api_key.created',
      actorId: member.id,
      actorUsername: member.username,
      targetUserId: member.id,
      targetUsername: member.username,
    });
  });

  it('authenticates with Bearer and X-API-Key, carrying the owner scope', async () => {
    const member = await createMember(t, admin);
    const key = await createKey(member);
    const bearer = await t.withKey(key, 'bearer').GET('/api/bot');
    expect(bearer.response.status).toBe(200);
    const header = await t.withKey(key, 'x-api-key').GET('/api/bot');
    expect(header.response.status).toBe(200);
    expect((await t.withKey(key).GET('/api/users')).response.status).toBe(403);
  });

  it('shows each use of a key as its lastUsedAt in the key lists at once', async () => {
    const member = await createMember(t, admin);
    const key = await createKey(member);
    const own = async () => (await member.api.GET('/api/keys')).data!.keys[0]!.lastUsedAt;
    const listedForAdmin = async () =>
      (await admin.api.GET('/api/keys', { params: { query: { all: '1' } } })).data!.keys.find(
        (listed) => listed.userId === member.id,
      )!.lastUsedAt;
    expect(await own()).toBeNull();
    const uses: number[] = [];
    for (let i = 0; i < 3; i++) {
      await new Promise((r) => setTimeout(r, 5));
      const before = Date.now();
      // A refused call is a use too.
      await t.withKey(key).GET(i === 1 ? '/api/users' : '/api/bot');
      const shown = Date.parse((await own())!);
      expect(shown).toBeGreaterThanOrEqual(before);
      expect(await listedForAdmin()).toBe(new Date(shown).toISOString());
      uses.push(shown);
    }
    expect(uses[1]).toBeGreaterThan(uses[0]!);
    expect(uses[2]).toBeGreaterThan(uses[1]!);
  });

  it('writes the uses of keys to the database soon after, not on the request path', async () => {
    const member = await createMember(t, admin);
    const [one, two] = [await createKey(member, 'one'), await createKey(member, 'two')];
    await Promise.all([t.withKey(one).GET('/api/bot'), t.withKey(two).GET('/api/bot')]);
    const stored = async () =>
      (await t.db.select().from(apiKeys).where(eq(apiKeys.userId, member.id))).map((row) => row.lastUsedAt);
    expect(await stored()).toEqual([null, null]);
    await expect.poll(stored, { timeout: 3000 }).toEqual([expect.any(Date), expect.any(Date)]);
  });

  it('gives an admin key full admin authority outside key management', async () => {
    const key = await createKey(admin, 'admin automation');
    const created = await t
      .withKey(key)
      .POST('/api/users', { body: { username: 'made_by_key', password: 'long enough pw' } });
    expect(created.response.status).toBe(201);
  });

  it('refuses keys on key management and session routes with 403', async () => {
    const member = await createMember(t, admin);
    const key = await createKey(member);
    const api = t.withKey(key);
    expect((await api.GET('/api/keys')).response.status).toBe(403);
    expect((await api.POST('/api/keys', { body: { name: 'x' } })).response.status).toBe(403);
    expect((await api.GET('/api/session/me')).response.status).toBe(403);
  });

  it('answers an unknown or revoked key with 401 invalid api key', async () => {
    const unknown = await t.withKey('tsmb_thisKeyDoesNotExist0000000000000000').GET('/api/bot');
    expect(unknown.response.status).toBe(401);
    expect(unknown.error).toMatchObject({ error: 'invalid api key' });
    const member = await createMember(t, admin);
    const key = await createKey(member);
    const [row] = await t.db.select().from(apiKeys).where(eq(apiKeys.userId, member.id));
    const del = await member.api.DELETE('/api/keys/{id}', { params: { path: { id: row!.id } } });
    expect(del.data).toEqual({ success: true });
    expect((await t.withKey(key).GET('/api/bot')).error).toMatchObject({ error: 'invalid api key' });
  });

  it('caps keys at 20 per user (409) and names at 1-64 characters', async () => {
    const member = await createMember(t, admin);
    const created = await Promise.all(
      Array.from({ length: 22 }, (_, i) => member.api.POST('/api/keys', { body: { name: `k${i}` } })),
    );
    const statuses = created.map((r) => r.response.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(20);
    expect(statuses.filter((s) => s === 409)).toHaveLength(2);
    const other = await createMember(t, admin);
    expect((await other.api.POST('/api/keys', { body: { name: '' } })).response.status).toBe(400);
    expect((await other.api.POST('/api/keys', { body: { name: 'x'.repeat(65) } })).response.status).toBe(400);
    expect((await other.api.POST('/api/keys', { body: { name: 'x'.repeat(64) } })).response.status).toBe(201);
  });

  it('lets owners delete only their own keys, admins any, and lists all keys for admins only', async () => {
    const alice = await createMember(t, admin);
    const bob = await createMember(t, admin);
    await createKey(alice, 'alice key');
    const [aliceKey] = await t.db.select().from(apiKeys).where(eq(apiKeys.userId, alice.id));
    const foreign = await bob.api.DELETE('/api/keys/{id}', { params: { path: { id: aliceKey!.id } } });
    expect(foreign.response.status).toBe(404);
    expect((await bob.api.GET('/api/keys', { params: { query: { all: '1' } } })).response.status).toBe(403);
    const all = await admin.api.GET('/api/keys', { params: { query: { all: '1' } } });
    expect(all.data?.keys.find((k) => k.id === aliceKey!.id)).toMatchObject({ username: alice.username });
    const byAdmin = await admin.api.DELETE('/api/keys/{id}', { params: { path: { id: aliceKey!.id } } });
    expect(byAdmin.response.status).toBe(200);
    const audit = await admin.api.GET('/api/audit');
    expect(audit.data?.entries[0]).toMatchObject({
      action: 'api_key.deleted',
      actorUsername: 'admin',
      targetUsername: alice.username,
    });
  });
});
