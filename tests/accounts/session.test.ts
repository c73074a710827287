import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { sessions } from '../../shared/db/schema';
import { createKey, createMember, login, PASSWORD, setupAdmin } from '../../testkit/accounts';
import { startTestApp, TEST_ORIGIN, type TestApp } from '../../testkit/test-app';

let t: TestApp;
afterEach(() => t?.close());

const raw = (path: string, init: RequestInit & { headers?: Record<string, string> } = {}) =>
  t.fetch(new Request(`${TEST_ORIGIN}${path}`, init));

describe('first-run setup', () => {
  it('creates the first admin once, signs them in with a proper cookie, and audits it', async () => {
    t = await startTestApp();
    const { api } = t.browser();
    expect((await api.GET('/api/session/needs-setup')).data).toEqual({ needsSetup: true });
    const { data, response } = await api.POST('/api/session/setup', {
      body: { username: 'root', password: PASSWORD },
    });
    expect(response.status).toBe(201);
    expect(data?.user).toMatchObject({ username: 'root', role: 'admin' });
    const cookie = response.headers.getSetCookie().find((c) => c.startsWith('tsmb_session='));
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);
    expect(cookie).toMatch(/Path=\//);
    expect(cookie).not.toMatch(/Secure/i);
    expect((await api.GET('/api/session/me')).data).toMatchObject({
      user: { username: 'root', role: 'admin' },
      bots: 'all',
    });
    expect((await api.GET('/api/session/needs-setup')).data).toEqual({ needsSetup: false });
    const audit = await api.GET('/api/audit');
    expect(audit.data?.entries[0]).toMatchObject({
      action: 'admin.first_created',
      actorUsername: 'root',
      targetUsername: 'root',
    });
  });

  it('lets exactly one of two concurrent setups win', async () => {
    t = await startTestApp();
    const results = await Promise.all(
      ['alpha', 'beta'].map((username) =>
        t.browser().api.POST('/api/session/setup', { body: { username, password: PASSWORD } }),
      ),
    );
    expect(results.map((r) => r.response.status).sort()).toEqual([201, 409]);
    const admins = await setupAdminCount(t);
    expect(admins).toBe(1);
  });

  it('validates the username and password', async () => {
    t = await startTestApp();
    const { api } = t.browser();
    const short = await api.POST('/api/session/setup', { body: { username: 'ab', password: PASSWORD } });
    expect(short.response.status).toBe(400);
    expect(short.error?.error).toMatch(/^username: /);
    const weak = await api.POST('/api/session/setup', { body: { username: 'admin', password: 'short' } });
    expect(weak.response.status).toBe(400);
    expect(weak.error?.error).toMatch(/^password: /);
  });

  it('allows 3 setup attempts a minute per client, then 429', async () => {
    t = await startTestApp({ env: { TRUST_PROXY: '1' } });
    const attempt = (ip: string) =>
      raw('/api/session/setup', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': ip },
        body: JSON.stringify({ username: 'admin', password: PASSWORD }),
      });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await attempt('203.0.113.7')).status);
    expect(statuses).toEqual([201, 409, 409, 429]);
    expect((await attempt('203.0.113.8')).status).toBe(409);
  });
});

async function setupAdminCount(app: TestApp): Promise<number> {
  const rows = await app.db.query.users.findMany();
  return rows.filter((u) => u.role === 'admin').length;
}

describe('login, me and logout', () => {
  it('signs in, reports the account, and signs out', async () => {
    t = await startTestApp();
    const admin = await setupAdmin(t, 'boss');
    const member = await createMember(t, admin);
    const me = await member.api.GET('/api/session/me');
    expect(me.data).toEqual({
      user: { id: member.id, username: member.username, role: 'member' },
      capabilities: ['player.control', 'player.queue'],
      bots: [],
    });
    const out = await member.api.POST('/api/session/logout');
    expect(out.response.status).toBe(204);
    expect((await member.api.GET('/api/session/me')).response.status).toBe(401);
  });

  it('refuses wrong credentials with 401, case-insensitive usernames work', async () => {
    t = await startTestApp();
    await setupAdmin(t, 'Boss');
    const bad = await t
      .browser()
      .api.POST('/api/session/login', { body: { username: 'boss', password: 'wrong password' } });
    expect(bad.response.status).toBe(401);
    expect(bad.error).toMatchObject({ error: 'wrong username or password' });
    const nobody = await t
      .browser()
      .api.POST('/api/session/login', { body: { username: 'nobody', password: PASSWORD } });
    expect(nobody.response.status).toBe(401);
    await login(t, 'boss');
  });

  it('answers the 6th login attempt within a minute with 429, per client address', async () => {
    t = await startTestApp({ env: { TRUST_PROXY: '1' } });
    await setupAdmin(t, 'boss');
    const attempt = (ip: string, password = 'wrong password') =>
      raw('/api/session/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': `${ip}, 10.0.0.1` },
        body: JSON.stringify({ username: 'boss', password }),
      });
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await attempt('198.51.100.1')).status);
    expect(statuses).toEqual([401, 401, 401, 401, 401]);
    const sixth = await attempt('198.51.100.1', PASSWORD);
    expect(sixth.status).toBe(429);
    expect(await sixth.json()).toMatchObject({ error: 'too many login attempts; try again in a minute' });
    expect((await attempt('198.51.100.2', PASSWORD)).status).toBe(200);
  });

  it('ignores X-Forwarded-For unless TRUST_PROXY is on, so the header cannot dodge the limit', async () => {
    t = await startTestApp({ env: { TRUST_PROXY: '0' } });
    await setupAdmin(t, 'boss');
    const statuses = [];
    for (let i = 0; i < 6; i++) {
      const res = await raw('/api/session/login', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': `192.0.2.${i}` },
        body: JSON.stringify({ username: 'boss', password: 'wrong password' }),
      });
      statuses.push(res.status);
    }
    expect(statuses).toEqual([401, 401, 401, 401, 401, 429]);
  });

  it('marks the cookie Secure behind a trusted HTTPS proxy', async () => {
    t = await startTestApp({ env: { TRUST_PROXY: '1' } });
    const res = await raw('/api/session/setup', {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-proto': 'https' },
      body: JSON.stringify({ username: 'admin', password: PASSWORD }),
    });
    expect(res.status).toBe(201);
    expect(res.headers.getSetCookie().join()).toMatch(/Secure/i);
  });

  it('extends a session that is used late in its life (rolling)', async () => {
    t = await startTestApp();
    const admin = await setupAdmin(t);
    const sessionId = admin.jar.get('tsmb_session')!;
    const inOneDay = Math.floor(Date.now() / 1000) + 86_400;
    await t.db.update(sessions).set({ expiresAt: inOneDay }).where(eq(sessions.id, sessionId));
    const me = await admin.api.GET('/api/session/me');
    expect(me.response.status).toBe(200);
    expect(me.response.headers.getSetCookie().join()).toMatch(/tsmb_session=/);
    const row = await t.db.query.sessions.findFirst({ where: eq(sessions.id, sessionId) });
    expect(row!.expiresAt).toBeGreaterThan(inOneDay + 5 * 86_400);
  });

  it('keeps the idle limit at 7 days to within an hour, without a write on every use', async () => {
    t = await startTestApp();
    const admin = await setupAdmin(t);
    const sessionId = admin.jar.get('tsmb_session')!;
    const stored = async () =>
      (await t.db.query.sessions.findFirst({ where: eq(sessions.id, sessionId) }))!.expiresAt;
    const endsIn = (seconds: number) =>
      t.db
        .update(sessions)
        .set({ expiresAt: Math.floor(Date.now() / 1000) + seconds })
        .where(eq(sessions.id, sessionId));
    const week = 7 * 86_400;

    // Last set 2 hours ago (not half a week): this use sets its end to a full week from now.
    await endsIn(week - 2 * 3600);
    const used = await admin.api.GET('/api/session/me');
    expect(used.response.headers.getSetCookie().join()).toMatch(/tsmb_session=/);
    expect(await stored()).toBeGreaterThanOrEqual(Math.floor(Date.now() / 1000) + week - 60);

    // Last set 30 minutes ago: nothing is written, the cookie is not sent again.
    await endsIn(week - 1800);
    const before = await stored();
    const again = await admin.api.GET('/api/session/me');
    expect(again.response.status).toBe(200);
    expect(again.response.headers.getSetCookie()).toEqual([]);
    expect(await stored()).toBe(before);
  });
});

describe('changing one own password', () => {
  it('keeps this session, ends the others and revokes every key; a failed change revokes nothing', async () => {
    t = await startTestApp();
    const admin = await setupAdmin(t);
    const member = await createMember(t, admin);
    const otherDevice = await login(t, member.username);
    const key = await createKey(member);

    const wrong = await member.api.POST('/api/session/change-password', {
      body: { currentPassword: 'not my password', newPassword: 'a brand new password' },
    });
    expect(wrong.response.status).toBe(403);
    const short = await member.api.POST('/api/session/change-password', {
      body: { currentPassword: PASSWORD, newPassword: 'short' },
    });
    expect(short.response.status).toBe(400);
    expect((await t.withKey(key).GET('/api/bot')).response.status).toBe(200);
    expect((await otherDevice.api.GET('/api/session/me')).response.status).toBe(200);

    const ok = await member.api.POST('/api/session/change-password', {
      body: { currentPassword: PASSWORD, newPassword: 'a brand new password' },
    });
    expect(ok.response.status).toBe(204);
    expect((await member.api.GET('/api/session/me')).response.status).toBe(200);
    expect((await otherDevice.api.GET('/api/session/me')).response.status).toBe(401);
    const revoked = await t.withKey(key).GET('/api/bot');
    expect(revoked.response.status).toBe(401);
    expect(revoked.error).toMatchObject({ error: 'invalid api key' });
    await login(t, member.username, 'a brand new password');
    const audit = await admin.api.GET('/api/audit');
    expect(audit.data?.entries.find((e) => e.action === 'user.password_changed')).toMatchObject({
      actorUsername: member.username,
      targetUsername: member.username,
    });
  });
});
