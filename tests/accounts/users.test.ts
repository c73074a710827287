import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { botGrants, bots, personalLinks, savedQueues, sessions } from '../../shared/db/schema';
import { GUEST_PRINCIPAL_ID } from '../../shared/domain/constants';
import {
  createKey,
  createMember,
  insertBot,
  login,
  PASSWORD,
  type Session,
  setupAdmin,
  withAdminApp,
} from '../../testkit/accounts';
import { startTestApp, type TestApp } from '../../testkit/test-app';

let t: TestApp;
let admin: Session;
withAdminApp((app, session) => {
  t = app;
  admin = session;
});

const path = (id: string) => ({ params: { path: { id } } });

describe('/api/users', () => {
  it('creates members with the basic tier, refuses duplicates case-insensitively, lists without the guest', async () => {
    const created = await admin.api.POST('/api/users', { body: { username: 'Carol', password: PASSWORD } });
    expect(created.response.status).toBe(201);
    expect(created.data).toMatchObject({ username: 'Carol', role: 'member' });
    const dup = await admin.api.POST('/api/users', { body: { username: 'carol', password: PASSWORD } });
    expect(dup.response.status).toBe(409);
    const perms = await admin.api.GET('/api/users/{id}/permissions', path(created.data!.id));
    expect(perms.data).toEqual({ capabilities: ['player.control', 'player.queue'], bots: [] });
    const list = await admin.api.GET('/api/users');
    expect(list.data?.users.map((u) => u.username)).toContain('Carol');
    expect(list.data?.users.some((u) => u.id === GUEST_PRINCIPAL_ID)).toBe(false);
    expect(list.data?.users.find((u) => u.username === 'Carol')?.createdAt).toMatch(/^\d{4}-\d\d-\d\dT/);
  });

  it('validates bodies: short password, bad role, unknown fields', async () => {
    expect(
      (await admin.api.POST('/api/users', { body: { username: 'dave', password: 'short' } })).response.status,
    ).toBe(400);
    const badRole = await admin.api.POST('/api/users', {
      body: { username: 'dave', password: PASSWORD, role: 'root' as 'admin' },
    });
    expect(badRole.response.status).toBe(400);
    expect(badRole.error?.error).toMatch(/^role: /);
    const extra = await admin.api.POST('/api/users', {
      body: { username: 'dave', password: PASSWORD, isAdmin: true } as never,
    });
    expect(extra.response.status).toBe(400);
    expect(extra.error?.error).toMatch(/unknown field/);
  });

  it('answers 404 for the guest principal on every :id handler', async () => {
    const id = GUEST_PRINCIPAL_ID;
    expect((await admin.api.DELETE('/api/users/{id}', path(id))).response.status).toBe(404);
    expect(
      (
        await admin.api.POST('/api/users/{id}/reset-password', {
          ...path(id),
          body: { newPassword: PASSWORD },
        })
      ).response.status,
    ).toBe(404);
    expect(
      (await admin.api.PATCH('/api/users/{id}/role', { ...path(id), body: { role: 'admin' } })).response
        .status,
    ).toBe(404);
    expect((await admin.api.GET('/api/users/{id}/permissions', path(id))).response.status).toBe(404);
    expect(
      (
        await admin.api.PUT('/api/users/{id}/permissions', {
          ...path(id),
          body: { capabilities: [], bots: 'all' },
        })
      ).response.status,
    ).toBe(404);
  });

  it('protects the last admin from demotion and deletion (409)', async () => {
    const fresh = await startTestApp();
    try {
      const only = await setupAdmin(fresh, 'onlyadmin');
      expect(
        (await only.api.PATCH('/api/users/{id}/role', { ...path(only.id), body: { role: 'member' } }))
          .response.status,
      ).toBe(409);
      expect((await only.api.DELETE('/api/users/{id}', path(only.id))).response.status).toBe(409);
      const second = await createMember(fresh, only, { role: 'admin' });
      expect(
        (await only.api.PATCH('/api/users/{id}/role', { ...path(second.id), body: { role: 'member' } }))
          .response.status,
      ).toBe(204);
      // A role change keeps the account's sessions; the demoted admin is a member from the next call.
      expect((await second.api.GET('/api/users')).response.status).toBe(403);
    } finally {
      await fresh.close();
    }
  });

  it('deletes a user with sessions, keys, grants, personal link and private saved queues', async () => {
    const botId = await insertBot(t);
    const member = await createMember(t, admin, { bots: [botId] });
    const key = await createKey(member);
    await t.db
      .insert(personalLinks)
      .values({ userId: member.id, platform: 'music_a', credential: 'c', linkedAt: new Date() });
    const now = new Date();
    await t.db.insert(savedQueues).values({
      id: 'q1',
      ownerId: member.id,
      name: 'mine',
      songs: '[]',
      songCount: 0,
      createdAt: now,
      updatedAt: now,
    });
    const del = await admin.api.DELETE('/api/users/{id}', path(member.id));
    expect(del.response.status).toBe(204);
    expect((await member.api.GET('/api/session/me')).response.status).toBe(401);
    expect((await t.withKey(key).GET('/api/bot')).error).toMatchObject({ error: 'invalid api key' });
    expect(await t.db.select().from(sessions).where(eq(sessions.userId, member.id))).toEqual([]);
    expect(await t.db.select().from(botGrants).where(eq(botGrants.userId, member.id))).toEqual([]);
    expect(await t.db.select().from(personalLinks).where(eq(personalLinks.userId, member.id))).toEqual([]);
    expect(await t.db.select().from(savedQueues).where(eq(savedQueues.ownerId, member.id))).toEqual([]);
    const audit = await admin.api.GET('/api/audit');
    expect(audit.data?.entries[0]).toMatchObject({
      action: 'user.deleted',
      actorUsername: 'admin',
      targetUsername: member.username,
    });
  });

  it('resets a password: ends all sessions and keys of the target; own reset keeps this session', async () => {
    const member = await createMember(t, admin);
    const key = await createKey(member);
    const reset = await admin.api.POST('/api/users/{id}/reset-password', {
      ...path(member.id),
      body: { newPassword: 'reset by admin' },
    });
    expect(reset.response.status).toBe(204);
    expect((await member.api.GET('/api/session/me')).response.status).toBe(401);
    expect((await t.withKey(key).GET('/api/bot')).response.status).toBe(401);
    await login(t, member.username, 'reset by admin');

    const otherAdminDevice = await login(t, 'admin');
    const own = await admin.api.POST('/api/users/{id}/reset-password', {
      ...path(admin.id),
      body: { newPassword: PASSWORD },
    });
    expect(own.response.status).toBe(204);
    expect((await admin.api.GET('/api/session/me')).response.status).toBe(200);
    expect((await otherAdminDevice.api.GET('/api/session/me')).response.status).toBe(401);
    const audit = await admin.api.GET('/api/audit');
    expect(audit.data?.entries[0]).toMatchObject({ action: 'user.password_reset', targetUsername: 'admin' });
  });

  it('sets permissions: capabilities, bot grants or all; unknown bots refused; grants pruned with the bot', async () => {
    const botId = await insertBot(t);
    const member = await createMember(t, admin);
    const unknown = await admin.api.PUT('/api/users/{id}/permissions', {
      ...path(member.id),
      body: { capabilities: ['bot.manage'], bots: ['no-such-bot'] },
    });
    expect(unknown.response.status).toBe(400);
    const put = await admin.api.PUT('/api/users/{id}/permissions', {
      ...path(member.id),
      body: { capabilities: ['bot.manage', 'quality'], bots: [botId] },
    });
    expect(put.data).toEqual({ success: true });
    expect((await member.api.GET('/api/session/me')).data).toMatchObject({
      capabilities: ['bot.manage', 'quality'],
      bots: [botId],
    });
    await t.db.delete(bots).where(eq(bots.id, botId));
    expect((await admin.api.GET('/api/users/{id}/permissions', path(member.id))).data?.bots).toEqual([]);
    await admin.api.PUT('/api/users/{id}/permissions', {
      ...path(member.id),
      body: { capabilities: [], bots: 'all' },
    });
    expect((await member.api.GET('/api/session/me')).data).toMatchObject({ capabilities: [], bots: 'all' });
    const audit = await admin.api.GET('/api/audit');
    expect(audit.data?.entries[0]).toMatchObject({
      action: 'user.permissions_changed',
      targetUsername: member.username,
    });
  });

  it('audits a user created by an admin as user.created, with actor and target', async () => {
    const created = await admin.api.POST('/api/users', {
      body: { username: 'audited_newcomer', password: PASSWORD, role: 'member' },
    });
    expect(created.response.status).toBe(201);
    const audit = await admin.api.GET('/api/audit', { params: { query: { limit: 1 } } });
    expect(audit.data?.entries).toEqual([
      expect.objectContaining({
        action: 'user.created',
        actorId: admin.id,
        actorUsername: 'admin',
        targetUserId: created.data!.id,
        targetUsername: 'audited_newcomer',
      }),
    ]);
    // A refused create (a taken name) records nothing.
    await admin.api.POST('/api/users', { body: { username: 'audited_newcomer', password: PASSWORD } });
    expect(
      (await admin.api.GET('/api/audit', { params: { query: { limit: 1 } } })).data?.entries[0]?.id,
    ).toBe(audit.data?.entries[0]?.id);
  });

  it('audits role changes with actor and target', async () => {
    const member = await createMember(t, admin);
    await admin.api.PATCH('/api/users/{id}/role', { ...path(member.id), body: { role: 'admin' } });
    const audit = await admin.api.GET('/api/audit', { params: { query: { limit: 1 } } });
    expect(audit.data?.entries).toEqual([
      expect.objectContaining({
        action: 'user.role_changed',
        actorId: admin.id,
        actorUsername: 'admin',
        targetUserId: member.id,
        targetUsername: member.username,
      }),
    ]);
  });
});

describe('GET /api/audit paging', () => {
  it('accepts limit 1-500 and offset >= 0, newest first', async () => {
    for (const limit of ['0', '501', 'abc', '1.5']) {
      const res = await t.fetch(
        new Request(`http://bot.test/api/audit?limit=${limit}`, { headers: { cookie: admin.jar.header()! } }),
      );
      expect(res.status).toBe(400);
    }
    const bad = await t.fetch(
      new Request('http://bot.test/api/audit?offset=-1', { headers: { cookie: admin.jar.header()! } }),
    );
    expect(bad.status).toBe(400);
    const page = await admin.api.GET('/api/audit', { params: { query: { limit: 2, offset: 0 } } });
    const next = await admin.api.GET('/api/audit', { params: { query: { limit: 2, offset: 2 } } });
    expect(page.data?.entries).toHaveLength(2);
    expect(page.data!.entries[0]!.id).toBeGreaterThan(page.data!.entries[1]!.id);
    expect(next.data!.entries[0]!.id).toBeLessThan(page.data!.entries[1]!.id);
  });
});
