/**
 * Every kind of caller the hardening suites send requests as, built through the API on a test app,
 * and what each operation's declared policy (`x-policy`) says each of them gets, written apart from
 * the authorization middleware so the two can disagree. Kinds: nobody, a forged session cookie, a
 * revoked key, a forged service token, a guest, a member without capabilities, a member without a
 * bot grant, a member with both, an admin (session and key), the member's key, and another member's
 * key (the one to try the member's own favorites, saved queues and keys with).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { RoutePolicy } from '../../shared/access/route-access';
import { apiKeys } from '../../shared/db/schema';
import { CAPABILITIES, GUEST_PERMISSION_DEFAULTS, type GuestPermission } from '../../shared/domain/constants';
import { SERVICE_TOKEN_HEADER } from '../../shared/service-headers';
import { createKey, createMember, type Session } from '../../testkit/accounts';
import type { CookieJar } from '../../testkit/cookie-jar';
import type { TestApp } from '../../testkit/test-app';

export type Outcome = 'allow' | 401 | 403;

export interface Principal {
  name: string;
  kind: 'anonymous' | 'session' | 'key' | 'service';
  /** False for credentials the service must not accept (revoked, forged). */
  authenticates: boolean;
  role?: 'admin' | 'member' | 'guest';
  capabilities?: readonly string[];
  bots?: 'all' | readonly string[];
  /** The session principals' cookies, kept current from every answer (sessions rotate). */
  jar?: CookieJar;
  /** Fixed credential headers (keys, forged values). */
  headers: Record<string, string>;
  /** The account id, for principals that are one. */
  userId?: string;
}

/** The messages the authorization layer refuses with (anything else is the handler's answer). */
const REFUSALS = [
  'authentication required',
  'API keys cannot be used here; use a browser session',
  'not available to guests',
  'guests may not do this',
  'admin only',
  'no access to this bot',
  'invalid api key',
  'invalid service token',
  'missing capability',
];

export function isAuthorizationRefusal(status: number, error: unknown): boolean {
  return (
    (status === 401 || status === 403) &&
    typeof error === 'string' &&
    REFUSALS.some((message) => error.startsWith(message))
  );
}

/** What the policy says `principal` gets on a route, given the bot id the path names (if any). */
export function expectedOutcome(
  policy: RoutePolicy,
  principal: Principal,
  botId: string | undefined,
): Outcome {
  if (policy.access === 'public') return policy.sessionOnly && principal.kind === 'key' ? 403 : 'allow';
  if (principal.kind === 'anonymous' || !principal.authenticates) return 401;
  if (policy.sessionOnly && principal.kind !== 'session') return 403;
  if (principal.role === 'guest') {
    if (policy.nonGuest || policy.access === 'admin') return 403;
    const flag = policy.guestPermission as GuestPermission | undefined;
    if (policy.capability && !(flag && GUEST_PERMISSION_DEFAULTS[flag])) return 403;
  } else if (principal.role !== 'admin') {
    if (policy.access === 'admin') return 403;
    if (policy.capability && !principal.capabilities?.includes(policy.capability)) return 403;
  }
  if (policy.botParam && (botId === undefined || !reachesBot(principal, botId))) return 403;
  return 'allow';
}

/** Whether the principal's scope takes in the bot (admins reach every bot). */
export function reachesBot(principal: Principal, botId: string): boolean {
  if (principal.role === 'admin') return true;
  const bots = principal.bots ?? [];
  return bots === 'all' || bots.includes(botId);
}

/** The credential headers of a principal right now. */
export function credentialHeaders(principal: Principal): Record<string, string> {
  const cookie = principal.jar?.header();
  return { ...principal.headers, ...(cookie ? { cookie } : {}) };
}

export interface PrincipalSet {
  all: Principal[];
  /** The member whose favorites, saved queues and keys the others must not reach. */
  owner: Principal;
  /** Raw API keys, revoked one included (for the secret scan). */
  rawKeys: string[];
  /** The owner's second key, whose id the key routes are tried with, and its (unique) name. */
  ownerSpareKey: { id: string; name: string };
}

const sessionOf = (name: string, s: Session, extra: Partial<Principal>): Principal => ({
  name,
  kind: 'session',
  authenticates: true,
  jar: s.jar,
  headers: {},
  userId: s.id,
  ...extra,
});

/**
 * Builds every principal on `t`. Guest mode must already be on for `guestBots`; members that reach bots
 * hold `all`, so a bot deleted during a run does not change what they get.
 */
export async function createPrincipals(
  t: TestApp,
  admin: Session,
  guestBots: string[],
): Promise<PrincipalSet> {
  const all = [...CAPABILITIES];
  const guest = t.browser();
  const guestLogin = await guest.api.POST('/api/session/guest');
  if (guestLogin.response.status !== 200) throw new Error('guest mode must be on');
  const noCap = await createMember(t, admin, { capabilities: [], bots: 'all' });
  const noGrant = await createMember(t, admin, { capabilities: all, bots: [] });
  const member = await createMember(t, admin, { capabilities: all, bots: 'all' });
  const other = await createMember(t, admin, { capabilities: all, bots: 'all' });
  const memberKey = await createKey(member);
  const spareName = `PRIVATE-KEY-${randomUUID()}`;
  const spare = await member.api.POST('/api/keys', { body: { name: spareName } });
  const otherKey = await createKey(other);
  const adminKey = await createKey(admin);
  const revokedKey = await createKey(noGrant, 'to revoke');
  await t.db.delete(apiKeys).where(eq(apiKeys.userId, noGrant.id));
  const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

  const owner = sessionOf('member', member, { role: 'member', capabilities: all, bots: 'all' });
  const principals: Principal[] = [
    { name: 'nobody', kind: 'anonymous', authenticates: false, headers: {} },
    {
      name: 'forged session cookie',
      kind: 'anonymous',
      authenticates: false,
      headers: { cookie: `tsmb_session=${randomBytes(20).toString('hex')}; tsmb_guest=${randomUUID()}` },
    },
    { name: 'revoked key', kind: 'key', authenticates: false, headers: bearer(revokedKey) },
    {
      name: 'forged service token',
      kind: 'service',
      authenticates: false,
      headers: { [SERVICE_TOKEN_HEADER]: randomBytes(32).toString('hex') },
    },
    {
      name: 'guest',
      kind: 'session',
      authenticates: true,
      role: 'guest',
      bots: guestBots,
      jar: guest.jar,
      headers: {},
    },
    sessionOf('member without capabilities', noCap, { role: 'member', capabilities: [], bots: 'all' }),
    sessionOf('member without bot grant', noGrant, { role: 'member', capabilities: all, bots: [] }),
    owner,
    sessionOf('admin', admin, { role: 'admin' }),
    {
      name: 'admin key',
      kind: 'key',
      authenticates: true,
      role: 'admin',
      headers: bearer(adminKey),
      userId: admin.id,
    },
    {
      name: 'member key',
      kind: 'key',
      authenticates: true,
      role: 'member',
      capabilities: all,
      bots: 'all',
      headers: { 'x-api-key': memberKey },
      userId: member.id,
    },
    {
      name: "another member's key",
      kind: 'key',
      authenticates: true,
      role: 'member',
      capabilities: all,
      bots: 'all',
      headers: bearer(otherKey),
      userId: other.id,
    },
  ];
  return {
    all: principals,
    owner,
    rawKeys: [memberKey, otherKey, adminKey, revokedKey, spare.data!.rawKey],
    ownerSpareKey: { id: spare.data!.key.id, name: spareName },
  };
}
