/**
 * Walks every operation of the OpenAPI document with every kind of caller and checks the answer
 * against the operation's declared policy: 401 when unauthenticated, 403 when not allowed, and
 * otherwise anything but an authorization refusal.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RoutePolicy } from '../../openapi/policy';
import { buildOpenApiDocument } from '../../scripts/openapi-build';
import { apiKeys } from '../../shared/db/schema';
import { CAPABILITIES } from '../../shared/domain/constants';
import { createKey, createMember, insertBot, setupAdmin } from '../helpers/accounts';
import type { CookieJar } from '../helpers/cookie-jar';
import { useMswServer } from '../helpers/msw-server';
import { startTestApp, TEST_ORIGIN, type TestApp } from '../helpers/test-app';

// Routes that reach a music platform (a QR login, a search) must never leave this machine.
useMswServer();

type Outcome = 'allow' | 401 | 403;
interface Caller {
  name: string;
  kind: 'anonymous' | 'session' | 'key';
  role?: 'admin' | 'member' | 'guest';
  capabilities?: readonly string[];
  reachesBot?: boolean;
  headers: () => Record<string, string>;
}

const AUTHORIZATION_REFUSALS = [
  'authentication required',
  'API keys cannot be used here; use a browser session',
  'not available to guests',
  'guests may not do this',
  'admin only',
  'no access to this bot',
  'invalid api key',
];

/** What the policy says should happen, written independently of the middleware. */
function expected(policy: RoutePolicy, caller: Caller, revoked: boolean): Outcome {
  if (policy.access === 'public') return policy.sessionOnly && caller.kind === 'key' ? 403 : 'allow';
  if (caller.kind === 'anonymous' || revoked) return 401;
  if (policy.sessionOnly && caller.kind === 'key') return 403;
  if (caller.role === 'guest') {
    if (policy.nonGuest || policy.access === 'admin') return 403;
    if (policy.capability && !(policy.guestPermission === 'addToQueue')) return 403;
  } else if (caller.role !== 'admin') {
    if (policy.access === 'admin') return 403;
    if (policy.capability && !caller.capabilities?.includes(policy.capability)) return 403;
  }
  if (policy.botParam && !caller.reachesBot) return 403;
  return 'allow';
}

const document = buildOpenApiDocument() as {
  paths: Record<string, Record<string, { 'x-policy': RoutePolicy; requestBody?: unknown }>>;
};
const operations = Object.entries(document.paths)
  .flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({ method: method.toUpperCase(), path, op })),
  )
  // Destructive calls last (a deleted bot cannot be reached by later callers), logout very last.
  .sort((a, b) => rank(a) - rank(b));

function rank(op: { method: string; path: string }): number {
  if (op.path.endsWith('/logout')) return 2;
  return op.method === 'DELETE' ? 1 : 0;
}

describe('authorization matrix over every route', () => {
  let t: TestApp;
  let botId: string;
  const callers: Caller[] = [];
  const cookieHeader = (jar: CookieJar) => () => ({ cookie: jar.header() ?? '' });

  beforeAll(async () => {
    t = await startTestApp();
    const admin = await setupAdmin(t);
    botId = await insertBot(t);
    await admin.api.POST('/api/bot/settings', { body: { guestMode: { enabled: true, bots: [botId] } } });
    const guest = t.browser();
    await guest.api.POST('/api/session/guest');
    // Members that reach the bot hold `all`, so a bot deleted mid-walk does not change their answers.
    const noCap = await createMember(t, admin, { capabilities: [], bots: 'all' });
    const noGrant = await createMember(t, admin, { capabilities: [...CAPABILITIES], bots: [] });
    const member = await createMember(t, admin, { capabilities: [...CAPABILITIES], bots: 'all' });
    const memberKey = await createKey(member);
    const adminKey = await createKey(admin);
    const revokedKey = await createKey(noGrant, 'to revoke');
    await t.db.delete(apiKeys).where(eq(apiKeys.userId, noGrant.id));
    const all = [...CAPABILITIES];
    const bearer = (k: string) => () => ({ authorization: `Bearer ${k}` });
    callers.push(
      { name: 'anonymous', kind: 'anonymous', headers: () => ({}) },
      { name: 'revoked key', kind: 'key', role: 'member', headers: bearer(revokedKey) },
      { name: 'guest', kind: 'session', role: 'guest', reachesBot: true, headers: cookieHeader(guest.jar) },
      {
        name: 'member without capability',
        kind: 'session',
        role: 'member',
        capabilities: [],
        reachesBot: true,
        headers: cookieHeader(noCap.jar),
      },
      {
        name: 'member without bot grant',
        kind: 'session',
        role: 'member',
        capabilities: all,
        reachesBot: false,
        headers: cookieHeader(noGrant.jar),
      },
      {
        name: 'member',
        kind: 'session',
        role: 'member',
        capabilities: all,
        reachesBot: true,
        headers: cookieHeader(member.jar),
      },
      { name: 'admin', kind: 'session', role: 'admin', reachesBot: true, headers: cookieHeader(admin.jar) },
      {
        name: 'member key',
        kind: 'key',
        role: 'member',
        capabilities: all,
        reachesBot: true,
        headers: bearer(memberKey),
      },
      { name: 'admin key', kind: 'key', role: 'admin', reachesBot: true, headers: bearer(adminKey) },
    );
  });
  afterAll(() => t.close());

  it('covers every operation of the document', () => {
    expect(operations.length).toBeGreaterThanOrEqual(23);
  });

  it('answers each caller on each route as its policy says', async () => {
    const mismatches: string[] = [];
    for (const { method, path, op } of operations) {
      const policy = op['x-policy'];
      const url = path.replace(/\{(\w+)\}/g, (_, name: string) =>
        name === policy.botParam ? botId : 'no-such-id',
      );
      for (const caller of callers) {
        const want = expected(policy, caller, caller.name === 'revoked key');
        const headers: Record<string, string> = { ...caller.headers() };
        const init: RequestInit = { method, headers };
        if (op.requestBody) {
          headers['content-type'] = 'application/json';
          init.body = '{}';
        }
        const res = await t.fetch(new Request(`${TEST_ORIGIN}${url}`, init));
        const body = res.headers.get('content-type')?.includes('json')
          ? ((await res.json()) as { error?: string })
          : {};
        const refused =
          (res.status === 401 || res.status === 403) &&
          AUTHORIZATION_REFUSALS.some(
            (m) => body.error?.startsWith(m) || body.error?.startsWith('missing capability'),
          );
        const got: Outcome = refused ? (res.status as 401 | 403) : 'allow';
        if (got !== want)
          mismatches.push(
            `${method} ${path} as ${caller.name}: expected ${want}, got ${res.status} ${body.error ?? ''}`,
          );
      }
    }
    expect(mismatches).toEqual([]);
  });
});
