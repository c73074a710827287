/**
 * The access rules, written once: whether a caller may call a route under its policy (`x-policy`), and
 * if not, the refusal it gets. The api's authorization layer enforces the answer and the browser UI
 * hides the controls it refuses, so the page and the server cannot disagree about a rule.
 *
 * Pure data and functions: the web bundle imports it (no Node modules).
 */
import type { Capability, GuestPermission, PrincipalRole } from '../domain/constants';
import { type Phrase, say } from '../i18n/phrases';

export interface RoutePolicy {
  /** `public`: anyone; `authenticated`: any session or key; `admin`: role admin only. */
  access: 'public' | 'authenticated' | 'admin';
  /** Guest sessions are refused (403). */
  nonGuest?: boolean;
  /** Browser session only: a request authenticated by API key is refused (403). */
  sessionOnly?: boolean;
  /** Members need this capability; admins always pass. */
  capability?: Capability;
  /** Name of the path parameter holding a bot id: members need a grant for that bot. */
  botParam?: string;
  /** Guests need this flag of `guestMode.permissions` (guests are otherwise refused where `capability` is set). */
  guestPermission?: GuestPermission;
}

/** Who an authenticated caller is, as far as the rules care: the api's principal and the page's `Me` both say it. */
export interface AccessSubject {
  role: PrincipalRole;
  capabilities: readonly Capability[];
  /** The bots the caller reaches: every bot, or the granted ones (guests: guest mode's bots). */
  bots: 'all' | readonly string[];
  /** Guests only: what guest mode currently lets them do. */
  guestPermissions?: Partial<Record<GuestPermission, boolean>>;
}

export type CredentialKind = 'session' | 'api-key' | 'service';

export interface Caller {
  /** What the request carries to say who it is; absent when it carries nothing. */
  credential?: CredentialKind;
  /** Who it is once authenticated; absent for anonymous callers (and on public routes, never looked up). */
  subject?: AccessSubject;
}

export interface Refusal {
  status: 401 | 403;
  phrase: Phrase;
}

const forbidden = (phrase: Phrase): Refusal => ({ status: 403, phrase });

/** SPEC Authentication 7: an admin passes every capability, bot and ownership check. */
export const passesEveryCheck = (subject: { role: PrincipalRole }): boolean => subject.role === 'admin';

export const hasCapability = (subject: AccessSubject, capability: Capability): boolean =>
  passesEveryCheck(subject) || subject.capabilities.includes(capability);

export const canReachBot = (subject: AccessSubject, botId: string): boolean =>
  passesEveryCheck(subject) || subject.bots === 'all' || subject.bots.includes(botId);

function roleRefusal(policy: RoutePolicy, subject: AccessSubject): Refusal | undefined {
  if (subject.role === 'guest') {
    if (policy.nonGuest || policy.access === 'admin') return forbidden(say.notForGuests());
    // Guests have no capabilities: a capability route is theirs only through its guest-mode flag.
    const flag = policy.guestPermission;
    if (policy.capability && !(flag && subject.guestPermissions?.[flag]))
      return forbidden(say.guestsMayNot());
    return undefined;
  }
  if (policy.access === 'admin' && !passesEveryCheck(subject)) return forbidden(say.adminOnly());
  if (policy.capability && !hasCapability(subject, policy.capability)) {
    return forbidden(say.missingCapability(policy.capability));
  }
  return undefined;
}

/**
 * Why `caller` may not call a route under `policy`, or `undefined` when it may. `botId` is the value of
 * the policy's `botParam` in the request's path (a route naming a bot is refused without one).
 */
export function refusalOf(policy: RoutePolicy, caller: Caller, botId?: string): Refusal | undefined {
  if (policy.access === 'public') {
    return policy.sessionOnly && caller.credential === 'api-key'
      ? forbidden(say.apiKeysNotHere())
      : undefined;
  }
  const { subject } = caller;
  if (!subject) return { status: 401, phrase: say.notSignedIn() };
  if (policy.sessionOnly && caller.credential !== 'session') return forbidden(say.apiKeysNotHere());
  const refused = roleRefusal(policy, subject);
  if (refused) return refused;
  if (policy.botParam && (botId === undefined || !canReachBot(subject, botId))) {
    return forbidden(say.noBotAccess());
  }
  return undefined;
}
