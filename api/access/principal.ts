/**
 * The authenticated caller as every handler sees it. Loaded once per request (SPEC.md
 * Authentication 9); handlers never re-read cookies or keys.
 */
import type { Actor } from '../../shared/bus/messages';
import { type Capability, GUEST_LABEL, type PrincipalRole } from '../../shared/domain/constants';
import type { GuestPermissions } from '../../shared/settings/guest-mode';

export type BotScope = 'all' | readonly string[];

export type Credential =
  | { kind: 'session'; sessionId: string }
  | { kind: 'api-key'; keyId: string }
  /** A daemon's chat commands, acting for a voice-server user. */
  | { kind: 'service' };

export interface Principal {
  userId: string;
  username: string;
  role: PrincipalRole;
  capabilities: readonly Capability[];
  bots: BotScope;
  credential: Credential;
  /** Present for guests only: what guest mode currently lets them do. */
  guestPermissions?: GuestPermissions;
}

export function actorOf(principal: Principal): Actor {
  return { id: principal.userId, username: principal.username, role: principal.role };
}

/**
 * The caller's browser session when they act on their own account `userId` through one: after a
 * password change or reset of their own, it is the one session that goes on (SPEC Auth rule 6).
 */
export const ownSessionId = (principal: Principal, userId: string): string | undefined =>
  principal.userId === userId && principal.credential.kind === 'session'
    ? principal.credential.sessionId
    : undefined;

/** The queue label of a request: the account's username, or the guest label for guests. */
export const requesterOf = (principal: Principal): string =>
  principal.role === 'guest' ? GUEST_LABEL : principal.username;

/**
 * The caller of a route whose policy requires authentication. The authorization layer has already
 * refused anonymous requests, so a missing principal here is a wiring mistake, not a client's.
 */
export function principalOf(c: { get(key: 'principal'): Principal | undefined }): Principal {
  const principal = c.get('principal');
  if (!principal) throw new Error('no principal on an authenticated route');
  return principal;
}
