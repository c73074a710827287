/**
 * Resolves who is calling, in this order: the chat service (its token), an API key
 * (`Authorization: Bearer` or `X-API-Key`), the member session cookie, the guest session cookie. An
 * unknown or revoked key is a 401 `invalid api key` even when a cookie is present too: a broken key
 * must never silently fall back. A key or a session costs one database read, which also loads the
 * whole principal (load-principal.ts), so every change to it holds on the very next request.
 */
import type { Context } from 'hono';
import { say } from '../../shared/i18n/phrases';
import { ACT_FOR_HEADER, SERVICE_TOKEN_HEADER } from '../../shared/service-headers';
import type { AppDeps, AppEnv } from '../env';
import { ApiError } from '../errors';
import { apiKeyFromHeaders, hashApiKey } from './api-key';
import type { KeyUses } from './key-uses';
import { createPrincipalLoader } from './load-principal';
import type { Principal } from './principal';
import { keyAuthenticates, sessionAuthenticates } from './reload-principal';
import { servicePrincipal } from './service-principal';
import {
  clearSessionCookie,
  readSessionCookie,
  renewSession,
  type SessionKind,
  type SessionStores,
  sessionState,
  writeSessionCookie,
} from './sessions';

export type Authenticator = (c: Context<AppEnv>) => Promise<Principal | undefined>;

export function createAuthenticator(deps: AppDeps, stores: SessionStores, keyUses: KeyUses): Authenticator {
  const { db } = deps;
  const loader = createPrincipalLoader(db);

  async function fromApiKey(rawKey: string): Promise<Principal> {
    const key = await loader.byApiKeyHash(hashApiKey(rawKey));
    const principal = key?.principal;
    if (!key || !keyAuthenticates(principal)) throw new ApiError(401, say.invalidApiKey());
    keyUses.noted(key.keyId);
    return principal;
  }

  async function fromSession(c: Context<AppEnv>, kind: SessionKind): Promise<Principal | undefined> {
    const sessionId = readSessionCookie(c, kind);
    if (!sessionId) return undefined;
    const found = await loader.bySessionId(sessionId);
    const state = found && sessionState(kind, found.expiresAt);
    if (state?.state === 'expired') await stores[kind].invalidateSession(sessionId);
    const principal = state?.state === 'expired' ? undefined : found?.principal;
    // A guest row behind the member cookie (or the reverse) is not a valid session of that kind.
    if (!state || !sessionAuthenticates(principal, kind)) {
      clearSessionCookie(c, kind);
      return undefined;
    }
    if (state.state === 'renew') {
      await renewSession(db, sessionId, state.expiresAt);
      writeSessionCookie(c, kind, { id: sessionId, expiresAt: state.expiresAt }, deps.config);
    }
    return principal;
  }

  return async function authenticate(c) {
    const serviceToken = c.req.header(SERVICE_TOKEN_HEADER);
    if (serviceToken)
      return servicePrincipal(serviceToken, deps.config.serviceToken, c.req.header(ACT_FOR_HEADER));
    const rawKey = apiKeyFromHeaders(c.req.header('authorization'), c.req.header('x-api-key'));
    if (rawKey) return fromApiKey(rawKey);
    return (await fromSession(c, 'member')) ?? (await fromSession(c, 'guest'));
  };
}
