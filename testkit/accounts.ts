/**
 * Account fixtures built through the API itself: the first admin via setup, members via /api/users,
 * keys via /api/keys. Names are unique per call so tests never collide.
 */
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, expect } from 'vitest';
import type { ApiClient } from '../openapi/client';
import { bots } from '../shared/db/schema';
import { botRow } from './bot-row';
import type { CookieJar } from './cookie-jar';
import { startTestApp, type TestApp, type TestAppOptions } from './test-app';

export const PASSWORD = 'correct horse battery';

export interface Session {
  api: ApiClient;
  jar: CookieJar;
  id: string;
  username: string;
}

export const uniqueName = (prefix: string) => `${prefix}_${randomUUID().slice(0, 8)}`;

export async function setupAdmin(t: TestApp, username = 'admin'): Promise<Session> {
  const { api, jar } = t.browser();
  const { data, response } = await api.POST('/api/session/setup', { body: { username, password: PASSWORD } });
  expect(response.status).toBe(201);
  return { api, jar, id: data!.user.id, username };
}

export async function login(t: TestApp, username: string, password = PASSWORD): Promise<Session> {
  const { api, jar } = t.browser();
  const { data, response } = await api.POST('/api/session/login', { body: { username, password } });
  expect(response.status).toBe(200);
  return { api, jar, id: data!.user.id, username };
}

export async function createMember(
  t: TestApp,
  admin: Session,
  options: { role?: 'admin' | 'member'; capabilities?: string[]; bots?: 'all' | string[] } = {},
): Promise<Session> {
  const username = uniqueName('user');
  const { data, response } = await admin.api.POST('/api/users', {
    body: { username, password: PASSWORD, role: options.role ?? 'member' },
  });
  expect(response.status).toBe(201);
  if (options.capabilities || options.bots) {
    const put = await admin.api.PUT('/api/users/{id}/permissions', {
      params: { path: { id: data!.id } },
      body: {
        capabilities: (options.capabilities ?? ['player.control', 'player.queue']) as never,
        bots: options.bots ?? [],
      },
    });
    expect(put.response.status).toBe(200);
  }
  return login(t, username);
}

export async function createKey(session: Session, name = 'test key'): Promise<string> {
  const { data, response } = await session.api.POST('/api/keys', { body: { name } });
  expect(response.status).toBe(201);
  return data!.rawKey;
}

/**
 * Inserts a bot row and tells the daemon, as bot creation will. `beforeStart` writes what the daemon
 * should find when it starts the bot (a queue snapshot, say).
 */
export async function insertBot(
  t: TestApp,
  name = uniqueName('bot'),
  beforeStart?: (botId: string) => Promise<unknown>,
): Promise<string> {
  const id = randomUUID();
  await t.db.insert(bots).values(botRow(id, name));
  await beforeStart?.(id);
  t.bus.publish('bots.events', { type: 'botCreated', botId: id });
  await new Promise((r) => setTimeout(r, 20));
  return id;
}

/**
 * One app per test file with its first admin signed in: registers the set-up and tear-down hooks and
 * hands both to `ready` once they exist (the file's tests start once `ready` has finished, so it may
 * also add what they all share, e.g. a bot).
 */
export function withAdminApp(
  ready: (t: TestApp, admin: Session) => void | Promise<void>,
  options?: TestAppOptions,
): void {
  let app: TestApp | undefined;
  beforeAll(async () => {
    app = await startTestApp(options);
    await ready(app, await setupAdmin(app));
  });
  afterAll(() => app?.close());
}
