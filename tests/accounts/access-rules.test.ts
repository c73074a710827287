/**
 * One rule, one place (issue 22): the browser UI shows a control exactly when the api would let the
 * call through. Every route of the OpenAPI document is called by every kind of caller (admin, members
 * with each capability alone, all of them, a grant for one bot, for every bot or for none, guests with
 * the default and with every guest permission, API keys, nobody) on the real app over a libSQL file,
 * and the api's answer is compared with what the page's evaluator (shared/access, fed the policies the
 * bundle is built with and the caller's own `GET /api/session/me`) says: allowed, or the very refusal.
 *
 * Requests carry bodies the schemas refuse (`{}`), so an allowed call stops at validation or at an
 * unknown id and changes nothing. Those that do (deleting a bot, entering as guest or signing out, both
 * of which end the session that calls them) run last, and each check reads the caller's `Me` afresh.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { type Method, pageAllows, pageCaller, type SignedIn } from '../../shared/access/page-access';
import { type Caller, type Refusal, refusalOf } from '../../shared/access/route-access';
import { CAPABILITIES, GUEST_PERMISSIONS } from '../../shared/domain/constants';
import type { PhraseCode } from '../../shared/i18n/phrases';
import {
  createKey,
  createMember,
  insertBot,
  login,
  type Session,
  withAdminApp,
} from '../../testkit/accounts';
import type { CookieJar } from '../../testkit/cookie-jar';
import { TEST_ORIGIN, type TestApp } from '../../testkit/test-app';
import { type OpenApiDocument, routePoliciesOf } from '../../web/build/route-policies';
import { useMswServer } from '../helpers/msw-server';

// No platform answers: calls that reach a platform fail at once instead of going out.
useMswServer();

const DOCUMENT = JSON.parse(
  readFileSync(join(import.meta.dirname, '..', '..', 'openapi', 'openapi.json'), 'utf8'),
) as OpenApiDocument;
/** What the bundle is built with (web/build/route-policies.ts). */
const POLICIES = routePoliciesOf(DOCUMENT);

/** The phrases the access rules refuse with; any other 401/403 is a handler's own answer. */
const ACCESS_CODES = new Set<string>([
  'notSignedIn',
  'apiKeysNotHere',
  'notForGuests',
  'guestsMayNot',
  'adminOnly',
  'missingCapability',
  'noBotAccess',
]);

interface Tester {
  name: string;
  /** Credential headers of each request (a session's cookie is read from its jar when sending). */
  headers: Record<string, string>;
  jar?: CookieJar;
  /** The browser session whose `Me` says who the caller is (a key's owner for key callers). */
  me?: Session | CookieJar;
  credential?: 'session' | 'api-key';
  /** The caller's `Me` as last read. */
  known?: SignedIn;
  /** Puts the world in the state this caller needs (guest mode's bots and permissions). */
  prepare?: () => Promise<void>;
}

let t: TestApp;
let admin: Session;
/** The admin's second session, which sets guest mode: the sign-out check ends `admin`'s. */
let settingsAdmin: Session;
let granted: string;
let other: string;
const testers: Tester[] = [];

const cookieOf = (jar: CookieJar | undefined): Record<string, string> => {
  const cookie = jar?.header();
  return cookie ? { cookie } : {};
};

async function meOf(source: Session | CookieJar): Promise<SignedIn> {
  const jar = 'jar' in source ? source.jar : source;
  const response = await t.app.fetch(
    new Request(`${TEST_ORIGIN}/api/session/me`, { headers: cookieOf(jar) }),
  );
  expect(response.status).toBe(200);
  return (await response.json()) as SignedIn;
}

async function setGuestMode(bots: 'all' | string[], permissions: Record<string, boolean>): Promise<void> {
  const res = await settingsAdmin.api.POST('/api/bot/settings', {
    body: { guestMode: { enabled: true, bots, permissions } },
  });
  expect(res.response.status).toBe(200);
}

const everyGuestPermission = (value: boolean) => Object.fromEntries(GUEST_PERMISSIONS.map((p) => [p, value]));

withAdminApp(
  async (app, first) => {
    t = app;
    admin = first;
    settingsAdmin = await login(t, admin.username);
    granted = await insertBot(t);
    other = await insertBot(t);
    const session = (name: string, s: Session): Tester => ({
      name,
      headers: {},
      jar: s.jar,
      me: s,
      credential: 'session',
    });
    testers.push(session('admin', admin));
    testers.push(
      session('member, no capability', await createMember(t, admin, { capabilities: [], bots: [granted] })),
    );
    for (const capability of CAPABILITIES) {
      const member = await createMember(t, admin, { capabilities: [capability], bots: [granted] });
      testers.push(session(`member, ${capability} only`, member));
    }
    const all = [...CAPABILITIES];
    testers.push(
      session('member, every bot', await createMember(t, admin, { capabilities: all, bots: 'all' })),
    );
    testers.push(session('member, no bot', await createMember(t, admin, { capabilities: all, bots: [] })));
    // Key callers have owners of their own: the last check signs every session out.
    const keyOwner = await createMember(t, admin, { capabilities: ['player.control'], bots: [granted] });
    testers.push({
      name: 'member key',
      headers: { authorization: `Bearer ${await createKey(keyOwner)}` },
      me: keyOwner,
      credential: 'api-key',
    });
    const adminOwner = await createMember(t, admin, { role: 'admin' });
    testers.push({
      name: 'admin key',
      headers: { 'x-api-key': await createKey(adminOwner) },
      me: adminOwner,
      credential: 'api-key',
    });
    const guest = async (name: string, bots: 'all' | string[], permissions: Record<string, boolean>) => {
      await setGuestMode(bots, permissions);
      const browser = t.browser();
      expect((await browser.api.POST('/api/session/guest')).response.status).toBe(200);
      testers.push({
        name,
        headers: {},
        jar: browser.jar,
        me: browser.jar,
        credential: 'session',
        prepare: () => setGuestMode(bots, permissions),
      });
    };
    await guest('guest, default permissions', [granted], {});
    await guest('guest, every permission', 'all', everyGuestPermission(true));
    testers.push({ name: 'nobody', headers: {} });
    for (const tester of testers) if (tester.me) tester.known = await meOf(tester.me);
  },
  { withDaemon: false },
);

/** The document's path with its parameters filled in: the bot under test, or ids that name nothing. */
function concretePath(path: string, botParam: string | undefined, botId: string): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) =>
    name === botParam ? botId : name === 'index' ? '0' : 'unknown',
  );
}

interface Outcome {
  status: number;
  code?: string;
  params?: unknown;
}

const refusalOutcome = (refusal: Refusal | undefined): Outcome | 'allowed' =>
  refusal ? { status: refusal.status, code: refusal.phrase.code, params: refusal.phrase.params } : 'allowed';

async function apiOutcome(method: string, path: string, tester: Tester): Promise<Outcome | 'allowed'> {
  const hasBody = method === 'POST' || method === 'PUT' || method === 'PATCH';
  const response = await t.app.fetch(
    new Request(`${TEST_ORIGIN}${path}`, {
      method,
      headers: {
        ...tester.headers,
        ...cookieOf(tester.jar),
        ...(hasBody ? { 'content-type': 'application/json' } : {}),
      },
      body: hasBody ? '{}' : undefined,
    }),
  );
  const json = response.headers.get('content-type')?.includes('json');
  const body = json ? ((await response.json()) as { code?: PhraseCode; params?: unknown }) : undefined;
  if (!json) await response.body?.cancel();
  const refused = (response.status === 401 || response.status === 403) && ACCESS_CODES.has(body?.code ?? '');
  return refused ? { status: response.status, code: body?.code, params: body?.params } : 'allowed';
}

interface Tally {
  allowed: number;
  refused: number;
}
const tally: Tally = { allowed: 0, refused: 0 };

/**
 * Calls `method path` as every tester (for each bot where the route names one) and returns every
 * disagreement between the api's answer, the shared rules and the page's evaluator.
 */
async function disagreements(method: Method, path: string): Promise<string[]> {
  const policy = POLICIES[`${method} ${path}`]!;
  const found: string[] = [];
  for (const tester of testers) {
    await tester.prepare?.();
    for (const botId of policy.botParam ? [granted, other] : [granted]) {
      // A public route looks nobody up, and the last two sign callers out: the `Me` last read stands.
      if (tester.me && policy.access !== 'public') tester.known = await meOf(tester.me);
      const me = tester.known ?? null;
      const caller: Caller = me ? { ...pageCaller(me), credential: tester.credential } : {};
      const rules = refusalOutcome(refusalOf(policy, caller, botId));
      const api = await apiOutcome(method, concretePath(path, policy.botParam, botId), tester);
      const where = `${method} ${path} as ${tester.name}${policy.botParam ? ` (${botId === granted ? 'granted bot' : 'other bot'})` : ''}`;
      if (JSON.stringify(api) !== JSON.stringify(rules)) {
        found.push(`${where}: api ${JSON.stringify(api)}, rules ${JSON.stringify(rules)}`);
      }
      // The page only ever calls with its session, so it answers for session callers and nobody.
      if (
        tester.credential !== 'api-key' &&
        pageAllows(POLICIES, me, method, path, botId) !== (api === 'allowed')
      ) {
        found.push(
          `${where}: api ${JSON.stringify(api)}, page shows ${api === 'allowed' ? 'nothing' : 'the control'}`,
        );
      }
      tally[api === 'allowed' ? 'allowed' : 'refused']++;
    }
  }
  return found;
}

/** The calls that change what later calls find, in the order they may run: last. */
const LAST = ['DELETE /api/bot/{id}', 'POST /api/session/guest', 'POST /api/session/logout'];
const ROUTES = Object.keys(POLICIES).sort((a, b) => LAST.indexOf(a) - LAST.indexOf(b));

describe('the page and the api apply the same access rules', () => {
  beforeAll(() => {
    expect(ROUTES.length).toBeGreaterThan(100);
    expect(ROUTES.slice(-LAST.length)).toEqual(LAST);
  });

  it.each(ROUTES)('%s', async (route) => {
    const [method, path] = route.split(' ') as [Method, string];
    expect(await disagreements(method, path)).toEqual([]);
  });

  it('met both answers many times over', () => {
    // Guards against a run that never reached the rules (every call refused, or none).
    expect(tally.allowed).toBeGreaterThan(500);
    expect(tally.refused).toBeGreaterThan(500);
  });
});
