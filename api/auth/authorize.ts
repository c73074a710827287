/**
 * The one authorization layer. Every route contract carries its policy (`x-policy`); this middleware
 * finds the policy of the route a request matched and enforces it before validation and before the
 * handler runs, so bot access is decided before a bot's existence can show.
 */
import type { MiddlewareHandler } from 'hono';
import { matchedRoutes } from 'hono/route';
import type { RoutePolicy } from '../../openapi/policy';
import { say } from '../../shared/i18n/phrases';
import type { AppEnv } from '../env';
import { ApiError } from '../errors';
import { apiKeyFromHeaders } from './api-key';
import type { Authenticator } from './authenticate';
import { canReachBot, hasCapability, type Principal } from './principal';

/** Looks up the policy of a Hono route (method, `/api/bot/:id` style path). */
export type PolicyLookup = (method: string, path: string) => RoutePolicy | undefined;

export function check(
  policy: RoutePolicy,
  principal: Principal,
  param: (name: string) => string | undefined,
): void {
  if (policy.sessionOnly && principal.credential.kind !== 'session') {
    throw new ApiError(403, say.apiKeysNotHere());
  }
  if (principal.role === 'guest') {
    if (policy.nonGuest || policy.access === 'admin') throw new ApiError(403, say.notForGuests());
    if (
      policy.capability &&
      !(policy.guestPermission && principal.guestPermissions?.[policy.guestPermission])
    ) {
      throw new ApiError(403, say.guestsMayNot());
    }
  } else {
    if (policy.access === 'admin' && principal.role !== 'admin') throw new ApiError(403, say.adminOnly());
    if (policy.capability && !hasCapability(principal, policy.capability)) {
      throw new ApiError(403, say.missingCapability(policy.capability));
    }
  }
  if (policy.botParam) {
    const botId = param(policy.botParam);
    if (botId === undefined || !canReachBot(principal, botId)) throw new ApiError(403, say.noBotAccess());
  }
}

/**
 * The path parameters of `path` under the route pattern `/api/bot/:id`. A global middleware has no
 * parameters of its own, so they are read from the pattern of the route that will answer.
 */
export function routeParams(pattern: string, path: string): Record<string, string> {
  const names = pattern.split('/');
  const values = path.split('/');
  const params: Record<string, string> = {};
  names.forEach((name, i) => {
    const value = values[i];
    if (name.startsWith(':') && value !== undefined) params[name.slice(1)] = decodeURIComponent(value);
  });
  return params;
}

export function authorization(lookup: PolicyLookup, authenticate: Authenticator): MiddlewareHandler<AppEnv> {
  return async function authorize(c, next) {
    // Several patterns can match one path (`/api/bot/settings` and `/api/bot/:id`); the first route
    // with a policy in registration order is the one whose handler answers.
    const route = matchedRoutes(c).find((r) => lookup(r.method, r.path));
    const policy = route && lookup(route.method, route.path);
    if (!route || !policy) return next();
    if (policy.access === 'public') {
      if (policy.sessionOnly && apiKeyFromHeaders(c.req.header('authorization'), c.req.header('x-api-key'))) {
        throw new ApiError(403, say.apiKeysNotHere());
      }
      return next();
    }
    const principal = await authenticate(c);
    if (!principal) throw new ApiError(401, say.notSignedIn());
    const params = routeParams(route.path, c.req.path);
    check(policy, principal, (name) => params[name]);
    c.set('principal', principal);
    return next();
  };
}
