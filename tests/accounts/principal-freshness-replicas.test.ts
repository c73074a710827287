/**
 * Two api processes (their own `node` entries) sharing one libSQL file and a real nats-server, as a
 * scaled-out deployment runs them. Every change that affects a principal is made through one process
 * and must hold on the very next request to the OTHER one: a revoked key, an ended session, a role,
 * capability or grant change, a deleted user, and guest mode switched, re-scoped or switched off.
 */
import { randomUUID } from 'node:crypto';
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiClient } from '../../openapi/client';
import { PASSWORD, uniqueName } from '../../testkit/accounts';
import { botRow } from '../../testkit/bot-row';
import { CookieJar } from '../../testkit/cookie-jar';
import { type NatsServerHandle, startNatsServer } from '../../testkit/nats-server';
import { preparedDataDir, type RunningService, runService, serviceClient } from '../../testkit/run-service';

let nats: NatsServerHandle;
let apiA: RunningService;
let apiB: RunningService;
let dataDir: string;
const [botOne, botTwo] = [randomUUID(), randomUUID()];

beforeAll(async () => {
  dataDir = await preparedDataDir('tsmb-replicas-', [botRow(botOne, 'One'), botRow(botTwo, 'Two')]);
  nats = await startNatsServer();
  // Behind a "trusted proxy" each test browser has its own address, so logins stay under the limit.
  const env = { DATA_DIR: dataDir, NATS_URL: nats.url, TRUST_PROXY: '1', LOG_LEVEL: 'warn' };
  [apiA, apiB] = await Promise.all([
    runService(env, ['npx', 'tsx', 'api/main.ts']),
    runService(env, ['npx', 'tsx', 'api/main.ts']),
  ]);
}, 120_000);
afterAll(async () => {
  await Promise.all([apiA, apiB].map((api) => api?.stop()));
  await nats?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

/** One caller: a cookie jar and/or headers, able to talk to either process with the same credentials. */
interface Caller {
  a: ApiClient;
  b: ApiClient;
  jar: CookieJar;
}

let callers = 0;
function caller(headers: Record<string, string> = {}): Caller {
  const jar = new CookieJar();
  callers++;
  const address = `198.18.${(callers >> 8) & 255}.${callers & 255}`;
  const client = (service: RunningService) =>
    serviceClient(service, { jar, headers: { 'x-forwarded-for': address, ...headers } });
  return { a: client(apiA), b: client(apiB), jar };
}

const keyCaller = (rawKey: string) => caller({ authorization: `Bearer ${rawKey}` });

let admin: Caller;
beforeAll(async () => {
  admin = caller();
  const setup = await admin.a.POST('/api/session/setup', { body: { username: 'admin', password: PASSWORD } });
  expect(setup.response.status).toBe(201);
});

/** A member created through process A and signed in through process B. */
async function member(bots: 'all' | string[] = [botOne]): Promise<Caller & { id: string; username: string }> {
  const username = uniqueName('member');
  const created = await admin.a.POST('/api/users', { body: { username, password: PASSWORD } });
  expect(created.response.status).toBe(201);
  const id = created.data!.id;
  const put = await admin.a.PUT('/api/users/{id}/permissions', {
    params: { path: { id } },
    body: { capabilities: ['player.control', 'player.queue'], bots },
  });
  expect(put.response.status).toBe(200);
  const session = caller();
  const login = await session.b.POST('/api/session/login', { body: { username, password: PASSWORD } });
  expect(login.response.status).toBe(200);
  return { ...session, id, username };
}

async function newKey(owner: ApiClient): Promise<{ id: string; rawKey: string }> {
  const created = await owner.POST('/api/keys', { body: { name: 'replica test' } });
  expect(created.response.status).toBe(201);
  return { id: created.data!.key.id, rawKey: created.data!.rawKey };
}

const status = async (call: Promise<{ response: Response }>) => (await call).response.status;

describe('a change through one api process holds on the next request to the other', () => {
  it('refuses a revoked key, whichever process revoked it', async () => {
    const m = await member();
    for (const [revokeOn, askOn] of [
      ['a', 'b'],
      ['b', 'a'],
      ['a', 'b'],
    ] as const) {
      const key = await newKey(m[revokeOn]);
      const api = keyCaller(key.rawKey);
      expect(await status(api[askOn].GET('/api/bot'))).toBe(200);
      expect(await status(m[revokeOn].DELETE('/api/keys/{id}', { params: { path: { id: key.id } } }))).toBe(
        200,
      );
      const next = await api[askOn].GET('/api/bot');
      expect(next.response.status).toBe(401);
      expect(next.error).toMatchObject({ error: 'invalid api key' });
    }
  });

  it('answers every request sent to B after a revocation on A with 401, while B is under load', async () => {
    const m = await member();
    const key = await newKey(m.a);
    const api = keyCaller(key.rawKey);
    const seen: { sentAt: number; status: number }[] = [];
    let revokedAt = Number.POSITIVE_INFINITY;
    let stopAt = Number.POSITIVE_INFINITY;
    const load = async () => {
      while (performance.now() < stopAt) {
        const sentAt = performance.now();
        seen.push({ sentAt, status: await status(api.b.GET('/api/bot')) });
      }
    };
    const loops = Array.from({ length: 8 }, load);
    await new Promise((r) => setTimeout(r, 300));
    await m.a.DELETE('/api/keys/{id}', { params: { path: { id: key.id } } });
    revokedAt = performance.now();
    stopAt = revokedAt + 300;
    await Promise.all(loops);
    const before = seen.filter((s) => s.sentAt < revokedAt);
    const after = seen.filter((s) => s.sentAt > revokedAt);
    expect(before.some((s) => s.status === 200)).toBe(true);
    expect(after.length).toBeGreaterThan(0);
    expect(after.filter((s) => s.status !== 401)).toEqual([]);
  });

  it('refuses a session ended by logout or by a password change or reset', async () => {
    const m = await member();
    expect(await status(m.a.GET('/api/session/me'))).toBe(200);
    const cookie = m.jar.header()!;
    await m.a.POST('/api/session/logout');
    const stale = caller({ cookie });
    expect(await status(stale.b.GET('/api/session/me'))).toBe(401);

    // The member's own password change keeps that session and ends the others, keys included.
    const first = caller();
    const second = caller();
    for (const device of [first, second]) {
      const login = await device.a.POST('/api/session/login', {
        body: { username: m.username, password: PASSWORD },
      });
      expect(login.response.status).toBe(200);
    }
    const key = keyCaller((await newKey(second.a)).rawKey);
    const changed = await first.b.POST('/api/session/change-password', {
      body: { currentPassword: PASSWORD, newPassword: 'another long password' },
    });
    expect(changed.response.status).toBe(204);
    expect(await status(second.a.GET('/api/session/me'))).toBe(401);
    expect(await status(key.a.GET('/api/bot'))).toBe(401);
    expect(await status(first.a.GET('/api/session/me'))).toBe(200);

    // An admin's reset ends every session of the account.
    const reset = await admin.b.POST('/api/users/{id}/reset-password', {
      params: { path: { id: m.id } },
      body: { newPassword: 'a third long password' },
    });
    expect(reset.response.status).toBe(204);
    expect(await status(first.a.GET('/api/session/me'))).toBe(401);
  });

  it('applies a role change both ways on the next request: sessions and keys follow the role', async () => {
    const m = await member();
    const key = keyCaller((await newKey(m.b)).rawKey);
    // Both processes have served this principal before the change.
    for (const api of [m.a, m.b, key.a, key.b]) expect(await status(api.GET('/api/users'))).toBe(403);
    const role = (on: 'a' | 'b', value: 'admin' | 'member') =>
      status(
        admin[on].PATCH('/api/users/{id}/role', { params: { path: { id: m.id } }, body: { role: value } }),
      );
    // A role change keeps the account's sessions (SPEC Auth rule 6); the next call on either process
    // already carries the new role.
    expect(await role('a', 'admin')).toBe(204);
    for (const api of [m.b, m.a, key.b, key.a]) expect(await status(api.GET('/api/users'))).toBe(200);
    expect(await role('b', 'member')).toBe(204);
    for (const api of [m.a, m.b, key.a, key.b]) expect(await status(api.GET('/api/users'))).toBe(403);
  });

  it('applies grant and capability changes, and refuses a deleted user', async () => {
    const m = await member([botOne]);
    const key = keyCaller((await newKey(m.a)).rawKey);
    const listed = async (api: ApiClient) => (await api.GET('/api/bot')).data?.bots.map((b) => b.id);
    expect(await listed(key.a)).toEqual([botOne]);
    expect(await listed(key.b)).toEqual([botOne]);
    const permissions = (on: 'a' | 'b', capabilities: string[], bots: 'all' | string[]) =>
      status(
        admin[on].PUT('/api/users/{id}/permissions', {
          params: { path: { id: m.id } },
          body: { capabilities: capabilities as never, bots },
        }),
      );

    expect(await permissions('a', ['player.control'], [botTwo])).toBe(200);
    expect(await listed(key.b)).toEqual([botTwo]);
    expect(await status(m.b.GET('/api/bot/{id}', { params: { path: { id: botOne } } }))).toBe(403);
    expect((await m.b.GET('/api/session/me')).data).toMatchObject({
      capabilities: ['player.control'],
      bots: [botTwo],
    });

    expect(await permissions('b', [], 'all')).toBe(200);
    expect(new Set(await listed(key.a))).toEqual(new Set([botOne, botTwo]));
    expect((await m.a.GET('/api/session/me')).data).toMatchObject({ capabilities: [], bots: 'all' });

    expect(await status(admin.a.DELETE('/api/users/{id}', { params: { path: { id: m.id } } }))).toBe(204);
    expect(await status(key.b.GET('/api/bot'))).toBe(401);
    expect(await status(m.b.GET('/api/session/me'))).toBe(401);
  });

  it('follows guest mode: switched on, re-scoped, permissions changed, switched off', async () => {
    const guestMode = (on: 'a' | 'b', value: Record<string, unknown>) =>
      status(admin[on].POST('/api/bot/settings', { body: { guestMode: value as never } }));
    expect(await guestMode('a', { enabled: true, bots: [botOne] })).toBe(200);
    const guest = caller();
    expect(await status(guest.b.POST('/api/session/guest'))).toBe(200);
    expect((await guest.a.GET('/api/session/me')).data).toMatchObject({
      user: { role: 'guest' },
      bots: [botOne],
    });
    expect((await guest.b.GET('/api/session/me')).data?.bots).toEqual([botOne]);

    expect(await guestMode('b', { bots: [botTwo] })).toBe(200);
    expect((await guest.a.GET('/api/session/me')).data?.bots).toEqual([botTwo]);
    expect(await status(guest.a.GET('/api/bot/{id}', { params: { path: { id: botOne } } }))).toBe(403);

    expect(await guestMode('a', { permissions: { addToQueue: false } })).toBe(200);
    expect((await guest.b.GET('/api/session/me')).data?.guestPermissions).toMatchObject({
      addToQueue: false,
    });

    expect(await guestMode('a', { enabled: false })).toBe(200);
    expect(await status(guest.b.GET('/api/session/me'))).toBe(401);
  });
});
