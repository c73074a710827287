/**
 * Session ids rotate whenever the privilege behind them changes (issue #16; api/session/rotation.ts):
 * a login, first-run setup or new guest session ends the sessions the browser brought, a cookie value
 * planted before login is never the one signed in, and a password change or reset ends the account's
 * sessions but the caller's own, which goes on with the same cookie (SPEC Auth rule 6). A role change ends nothing
 * (SPEC Auth rule 6): the new role holds from the next call. Every
 * answer is scanned for secrets; no session id shows anywhere but in its own Set-Cookie.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ApiClient } from '../../openapi/client';
import { PASSWORD, uniqueName } from '../../testkit/accounts';
import type { CookieJar } from '../../testkit/cookie-jar';
import { startTestApp, TEST_ORIGIN, type TestApp } from '../../testkit/test-app';
import { type ScannedClients, scannedClients } from './scanned-client';
import { SecretScanner } from './secret-scan';
import { recordTally } from './tally';

const logLines = vi.hoisted((): string[] => []);
vi.mock(import('pino'), async (importOriginal) =>
  (await import('../helpers/log-capture')).pinoAtTraceInto(logLines, await importOriginal()),
);

const MEMBER = 'tsmb_session';
const GUEST = 'tsmb_guest';

let t: TestApp;
let clients: ScannedClients;
const scanner = new SecretScanner();
let admin: { api: ApiClient; jar: CookieJar; id: string };

/** The status of GET /api/session/me with exactly this cookie header. */
async function meWith(cookie: string): Promise<number> {
  const response = await clients.send(new Request(`${TEST_ORIGIN}/api/session/me`, { headers: { cookie } }));
  return response.status;
}

async function newMember(role: 'admin' | 'member' = 'member') {
  const username = uniqueName('rotating');
  const created = await admin.api.POST('/api/users', { body: { username, password: PASSWORD, role } });
  expect(created.response.status).toBe(201);
  const browser = clients.browser();
  const login = await browser.api.POST('/api/session/login', { body: { username, password: PASSWORD } });
  expect(login.response.status).toBe(200);
  return { ...browser, id: created.data!.id, username };
}

beforeAll(async () => {
  t = await startTestApp({ withDaemon: false });
  clients = scannedClients(t, scanner);
  scanner.register('the test password', PASSWORD);
  scanner.register('SERVICE_TOKEN', t.config.serviceToken);
  const browser = clients.browser();
  const setup = await browser.api.POST('/api/session/setup', {
    body: { username: 'admin', password: PASSWORD },
  });
  expect(setup.response.status).toBe(201);
  admin = { ...browser, id: setup.data!.user.id };
  const guestMode = await admin.api.POST('/api/bot/settings', { body: { guestMode: { enabled: true } } });
  expect(guestMode.response.status).toBe(200);
});

afterAll(async () => {
  recordTally('session rotation', {
    requests: clients.requests,
    principals: 3,
    badInputs: 2,
    secretsSeen: scanner.findings.length,
  });
  await t.close();
});

describe('session ids rotate', () => {
  it('on first-run setup: a planted cookie is ended and replaced', async () => {
    const fresh = await startTestApp({ withDaemon: false });
    try {
      const planted = `${MEMBER}=${randomBytes(20).toString('hex')}`;
      const setup = await fresh.app.fetch(
        new Request(`${TEST_ORIGIN}/api/session/setup`, {
          method: 'POST',
          headers: { cookie: planted, 'content-type': 'application/json' },
          body: JSON.stringify({ username: 'first', password: PASSWORD }),
        }),
      );
      expect(setup.status).toBe(201);
      const issued = setup.headers.getSetCookie().find((c) => c.startsWith(`${MEMBER}=`));
      expect(issued).toBeDefined();
      expect(issued).not.toContain(planted);
    } finally {
      await fresh.close();
    }
  });

  it('on login: the sessions the browser brought end, and a planted value is never signed in', async () => {
    const member = await newMember();
    const before = member.jar.get(MEMBER)!;
    // The same browser also holds a guest session, and signs in again.
    await member.api.POST('/api/session/guest');
    const guestBefore = member.jar.get(GUEST)!;
    expect(guestBefore).toBeDefined();
    const again = await member.api.POST('/api/session/login', {
      body: { username: member.username, password: PASSWORD },
    });
    expect(again.response.status).toBe(200);
    const after = member.jar.get(MEMBER)!;
    expect(after).not.toBe(before);
    expect(member.jar.get(GUEST)).toBeUndefined();
    expect(await meWith(`${MEMBER}=${before}`)).toBe(401);
    expect(await meWith(`${GUEST}=${guestBefore}`)).toBe(401);
    expect(await meWith(`${MEMBER}=${after}`)).toBe(200);

    // Fixation: an attacker plants a cookie value, the victim signs in; the value stays worthless.
    const planted = randomBytes(20).toString('hex');
    member.jar.set(MEMBER, planted);
    await member.api.POST('/api/session/login', { body: { username: member.username, password: PASSWORD } });
    expect(member.jar.get(MEMBER)).not.toBe(planted);
    expect(await meWith(`${MEMBER}=${planted}`)).toBe(401);
  });

  it('on a new guest session: the old guest session ends', async () => {
    const visitor = clients.browser();
    await visitor.api.POST('/api/session/guest');
    const first = visitor.jar.get(GUEST)!;
    await visitor.api.POST('/api/session/guest');
    expect(visitor.jar.get(GUEST)).not.toBe(first);
    expect(await meWith(`${GUEST}=${first}`)).toBe(401);
    expect((await visitor.api.GET('/api/session/me')).response.status).toBe(200);
  });

  it('on a password change: the other sessions end, the caller goes on in the same one', async () => {
    const member = await newMember();
    const otherDevice = clients.browser();
    await otherDevice.api.POST('/api/session/login', {
      body: { username: member.username, password: PASSWORD },
    });
    const before = member.jar.get(MEMBER)!;
    const changed = await member.api.POST('/api/session/change-password', {
      body: { currentPassword: PASSWORD, newPassword: 'another long password' },
    });
    expect(changed.response.status).toBe(204);
    // A client that ignores Set-Cookie stays signed in (SPEC Auth rule 6).
    expect(changed.response.headers.getSetCookie()).toEqual([]);
    expect(await meWith(`${MEMBER}=${before}`)).toBe(200);
    expect((await otherDevice.api.GET('/api/session/me')).response.status).toBe(401);
  });

  it('on a password reset: the target signs in again; resetting one own password keeps the session', async () => {
    const member = await newMember();
    const reset = await admin.api.POST('/api/users/{id}/reset-password', {
      params: { path: { id: member.id } },
      body: { newPassword: 'reset by the admin' },
    });
    expect(reset.response.status).toBe(204);
    expect((await member.api.GET('/api/session/me')).response.status).toBe(401);

    const otherDevice = clients.browser();
    await otherDevice.api.POST('/api/session/login', { body: { username: 'admin', password: PASSWORD } });
    expect((await otherDevice.api.GET('/api/session/me')).response.status).toBe(200);
    const before = admin.jar.get(MEMBER)!;
    const own = await admin.api.POST('/api/users/{id}/reset-password', {
      params: { path: { id: admin.id } },
      body: { newPassword: PASSWORD },
    });
    expect(own.response.status).toBe(204);
    expect(own.response.headers.getSetCookie()).toEqual([]);
    expect(await meWith(`${MEMBER}=${before}`)).toBe(200);
    expect((await otherDevice.api.GET('/api/session/me')).response.status).toBe(401);
  });

  it('on a role change: sessions stay, and the session and keys carry the new role from the next call', async () => {
    const member = await newMember();
    const key = await member.api.POST('/api/keys', { body: { name: 'follows the role' } });
    const keyClient = clients.withHeaders({ authorization: `Bearer ${key.data!.rawKey}` });
    expect((await keyClient.GET('/api/users')).response.status).toBe(403);
    expect((await member.api.GET('/api/users')).response.status).toBe(403);
    const before = member.jar.get(MEMBER)!;
    const promoted = await admin.api.PATCH('/api/users/{id}/role', {
      params: { path: { id: member.id } },
      body: { role: 'admin' },
    });
    expect(promoted.response.status).toBe(204);
    // Promoted mid-use: still signed in with the same session, and already an admin.
    expect(member.jar.get(MEMBER)).toBe(before);
    expect((await member.api.GET('/api/session/me')).data?.user.role).toBe('admin');
    expect((await member.api.GET('/api/users')).response.status).toBe(200);
    expect((await keyClient.GET('/api/users')).response.status).toBe(200);

    // Demoting oneself (another admin exists) keeps the caller signed in, as a member at once.
    const demoted = await member.api.PATCH('/api/users/{id}/role', {
      params: { path: { id: member.id } },
      body: { role: 'member' },
    });
    expect(demoted.response.status).toBe(204);
    expect(member.jar.get(MEMBER)).toBe(before);
    expect((await member.api.GET('/api/session/me')).data?.user.role).toBe('member');
    expect((await member.api.GET('/api/users')).response.status).toBe(403);
    expect((await keyClient.GET('/api/users')).response.status).toBe(403);

    // The account's own sign-in still rotates the id.
    const again = await member.api.POST('/api/session/login', {
      body: { username: member.username, password: PASSWORD },
    });
    expect(again.data?.user.role).toBe('member');
    expect(member.jar.get(MEMBER)).not.toBe(before);
    expect(await meWith(`${MEMBER}=${before}`)).toBe(401);
  });

  it('never shows a session id, key or password in an answer or a log line', () => {
    for (const line of logLines) scanner.scanText('log line', line);
    expect(scanner.scanned).toBeGreaterThan(50);
    expect(scanner.findings).toEqual([]);
  });
});
