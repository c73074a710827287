/**
 * Authentication reads the whole principal in one statement, again whenever anything was committed to
 * the database since (api/access/load-principal.ts), so nothing about a principal can go stale: these
 * tests count the reads, change accounts behind the api's back (plain SQL on the app's connection and
 * on a connection of its own, cascades) and check the very next request, and check lucia's session
 * rules that the one-statement path re-implements.
 */
import { createClient } from '@libsql/client';
import { eq } from 'drizzle-orm';
import Database from 'libsql';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SESSION_LIFETIME_MS, SESSION_REFRESH_STEP_MS, sessionState } from '../../api/access/sessions';
import { botGrants, bots, sessions, settings, users } from '../../shared/db/schema';
import { GUEST_PRINCIPAL_ID } from '../../shared/domain/constants';
import { createKey, createMember, insertBot, type Session, setupAdmin } from '../../testkit/accounts';
import { startTestApp, type TestApp } from '../../testkit/test-app';

let t: TestApp;
let admin: Session;
beforeAll(async () => {
  t = await startTestApp({ withDaemon: false });
  admin = await setupAdmin(t);
});
afterAll(() => t?.close());

/** libSQL's native statement, which the request-path reads run on (api/access/prepared-json-read.ts). */
const nativeStatement = Object.getPrototypeOf(new Database(':memory:').prepare('SELECT 1'));

/** The database statements one call makes, through drizzle or on the native read connection. */
async function statementsOf(call: () => Promise<unknown>): Promise<number> {
  const execute = vi.spyOn(t.db.$client, 'execute');
  const nativeGet = vi.spyOn(nativeStatement, 'get');
  try {
    await call();
    return execute.mock.calls.length + nativeGet.mock.calls.length;
  } finally {
    execute.mockRestore();
    nativeGet.mockRestore();
  }
}

describe('authentication cost', () => {
  it('reads a principal once after a change of the database, and otherwise no statement at all', async () => {
    const botId = await insertBot(t);
    const member = await createMember(t, admin, { bots: [botId] });
    // /api/session/me reads nothing itself; a key is refused there only after authentication.
    // After the writes above: the principal; then nothing (the commit mark is no statement: commit-mark.ts).
    expect(await statementsOf(() => member.api.GET('/api/session/me'))).toBe(1);
    expect(await statementsOf(() => member.api.GET('/api/session/me'))).toBe(0);
    const key = await createKey(member);
    await t.withKey(key).GET('/api/session/me');
    // Its use is written a moment later (key-uses.ts); that write is a change of the database too.
    await expect
      .poll(async () => (await member.api.GET('/api/keys')).data?.keys[0]?.lastUsedAt)
      .not.toBeNull();
    expect(await statementsOf(() => t.withKey(key).GET('/api/session/me'))).toBe(1);
    expect(await statementsOf(() => t.withKey(key).GET('/api/session/me'))).toBe(0);
  });
});

describe('changes made outside the account routes', () => {
  it('shows role, capability and grant changes on the very next request', async () => {
    const [one, two] = [await insertBot(t), await insertBot(t)];
    const member = await createMember(t, admin, { capabilities: ['player.control'], bots: [one] });
    const api = t.withKey(await createKey(member));
    const reachable = async () => (await api.GET('/api/bot')).data?.bots.map((b) => b.id);
    expect(await reachable()).toEqual([one]);

    await t.db.insert(botGrants).values({ userId: member.id, botId: two });
    expect(await reachable()).toEqual([one, two]);
    await t.db.delete(bots).where(eq(bots.id, one)); // the grant goes by cascade
    expect(await reachable()).toEqual([two]);

    expect((await api.GET('/api/users')).response.status).toBe(403);
    await t.db.update(users).set({ role: 'admin' }).where(eq(users.id, member.id));
    expect((await api.GET('/api/users')).response.status).toBe(200);
    await t.db.update(users).set({ role: 'member', capabilities: [] }).where(eq(users.id, member.id));
    const me = await member.api.GET('/api/session/me');
    expect(me.data).toMatchObject({ user: { role: 'member' }, capabilities: [], bots: [two] });

    await t.db.delete(users).where(eq(users.id, member.id));
    expect((await api.GET('/api/bot')).response.status).toBe(401);
    expect((await member.api.GET('/api/session/me')).response.status).toBe(401);
  });

  it('sees what another connection to the file commits on the very next request', async () => {
    const member = await createMember(t, admin, { capabilities: ['player.control'], bots: [] });
    const api = t.withKey(await createKey(member));
    // Another process, or an admin's sqlite3 shell.
    const outside = createClient({ url: t.config.databaseUrl });
    try {
      expect((await api.GET('/api/users')).response.status).toBe(403);
      expect((await api.GET('/api/users')).response.status).toBe(403);
      await outside.execute({ sql: "UPDATE users SET role = 'admin' WHERE id = ?", args: [member.id] });
      expect((await api.GET('/api/users')).response.status).toBe(200);
      expect((await member.api.GET('/api/session/me')).response.status).toBe(200);
      await outside.execute({ sql: 'DELETE FROM sessions WHERE user_id = ?', args: [member.id] });
      expect((await member.api.GET('/api/session/me')).response.status).toBe(401);
      await outside.execute({ sql: 'DELETE FROM api_keys WHERE user_id = ?', args: [member.id] });
      expect((await api.GET('/api/bot')).error).toMatchObject({ error: 'invalid api key' });
    } finally {
      outside.close();
    }
  });

  it('follows the stored guest-mode row on the very next request', async () => {
    const botId = await insertBot(t);
    const enabled = await admin.api.POST('/api/bot/settings', {
      body: { guestMode: { enabled: true, bots: [botId] } },
    });
    expect(enabled.response.status).toBe(200);
    const guest = t.browser();
    expect((await guest.api.POST('/api/session/guest')).response.status).toBe(200);
    expect((await guest.api.GET('/api/session/me')).data?.bots).toEqual([botId]);

    const stored = (enabled: boolean, bots: 'all' | string[]) =>
      t.db
        .update(settings)
        .set({ value: JSON.stringify({ enabled, bots, permissions: { addToQueue: false } }) })
        .where(eq(settings.key, 'guestMode'));
    await stored(true, 'all');
    expect((await guest.api.GET('/api/session/me')).data).toMatchObject({
      bots: 'all',
      guestPermissions: { addToQueue: false },
    });
    await stored(false, 'all');
    expect((await guest.api.GET('/api/session/me')).response.status).toBe(401);
  });
});

describe('session lifetime (rolling)', () => {
  it('keeps a session set within the hour, renews an older one to a full lifetime, ends it at its end', () => {
    const now = Date.parse('2026-01-10T00:00:00Z');
    const day = 86_400_000;
    const hour = SESSION_REFRESH_STEP_MS;
    const renewed = (kind: 'member' | 'guest') => ({
      state: 'renew',
      expiresAt: new Date(now + SESSION_LIFETIME_MS[kind]),
    });
    expect(sessionState('member', new Date(now + 7 * day - hour + 1), now)).toEqual({ state: 'valid' });
    expect(sessionState('member', new Date(now + 7 * day - hour), now)).toEqual(renewed('member'));
    expect(sessionState('member', new Date(now + 3 * day), now)).toEqual(renewed('member'));
    expect(sessionState('guest', new Date(now + day - hour / 2), now)).toEqual({ state: 'valid' });
    expect(sessionState('guest', new Date(now + day - 2 * hour), now)).toEqual(renewed('guest'));
    expect(sessionState('member', new Date(now), now)).toEqual({ state: 'expired' });
  });

  it('refuses an expired session, deletes it and clears the cookie', async () => {
    const member = await createMember(t, admin);
    const sessionId = member.jar.get('tsmb_session')!;
    const past = Math.floor(Date.now() / 1000) - 1;
    await t.db.update(sessions).set({ expiresAt: past }).where(eq(sessions.id, sessionId));
    const me = await member.api.GET('/api/session/me');
    expect(me.response.status).toBe(401);
    expect(await t.db.query.sessions.findFirst({ where: eq(sessions.id, sessionId) })).toBeUndefined();
    expect(member.jar.get('tsmb_session')).toBeUndefined();
  });

  it('refuses a guest session behind the member cookie', async () => {
    await admin.api.POST('/api/bot/settings', { body: { guestMode: { enabled: true } } });
    const guest = t.browser();
    await guest.api.POST('/api/session/guest');
    const guestSessionId = guest.jar.get('tsmb_guest')!;
    const [row] = await t.db.select().from(sessions).where(eq(sessions.id, guestSessionId));
    expect(row?.userId).toBe(GUEST_PRINCIPAL_ID);
    const impostor = t.browser();
    impostor.jar.set('tsmb_session', guestSessionId);
    expect((await impostor.api.GET('/api/session/me')).response.status).toBe(401);
  });
});
