/**
 * The principal a credential carries NOW, read the way a request reads it (load-principal.ts). A
 * WebSocket is authenticated once, at its upgrade; the gateway reads its principal again through this
 * whenever the account's rights or credentials change, and when its session reaches its end
 * (api/ws/gateway.ts), so a socket never keeps what its account has lost nor outlives its session.
 */
import type { PrincipalLoader } from './load-principal';
import type { Principal } from './principal';
import { type SessionKind, sessionState } from './sessions';

/** An API key authenticates its account; keys of the guest account never do. */
export const keyAuthenticates = (principal: Principal | undefined): principal is Principal =>
  principal !== undefined && principal.role !== 'guest';

/** A session authenticates under its own cookie only: a guest row behind the member cookie does not. */
export const sessionAuthenticates = (
  principal: Principal | undefined,
  kind: SessionKind,
): principal is Principal => principal !== undefined && (principal.role === 'guest') === (kind === 'guest');

/**
 * The principal now behind a credential, and when a session credential ends unless a use renews it
 * (a key never ends by itself).
 */
export interface Reloaded {
  principal: Principal;
  endsAt?: Date;
}

/** What the credential `principal` was loaded with carries now, or undefined once it no longer authenticates. */
export type PrincipalReloader = (principal: Principal) => Promise<Reloaded | undefined>;

export function principalReloader(loader: PrincipalLoader): PrincipalReloader {
  return async (principal) => {
    const { credential } = principal;
    switch (credential.kind) {
      case 'api-key': {
        const now = (await loader.byApiKeyId(credential.keyId))?.principal;
        return keyAuthenticates(now) ? { principal: now } : undefined;
      }
      case 'session': {
        const kind: SessionKind = principal.role === 'guest' ? 'guest' : 'member';
        const found = await loader.bySessionId(credential.sessionId);
        if (!found || sessionState(kind, found.expiresAt).state === 'expired') return undefined;
        return sessionAuthenticates(found.principal, kind)
          ? { principal: found.principal, endsAt: found.expiresAt }
          : undefined;
      }
      // The chat service's token is configuration, not an account's right: nothing to read again.
      case 'service':
        return { principal };
    }
  };
}
