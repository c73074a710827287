/**
 * The one authorization layer. Every route contract carries its policy (`x-policy`); this middleware
 * finds the policy of the route a request matched and enforces it before validation and before the
 * handler runs, so bot access is decided before a bot's existence can show.
 */
import type { MiddlewareHandler } from 'hono';
import { matchedRoutes } from 'hono/route';
import { type Caller, type RoutePolicy, refusalOf } from '../../shared/access/route-access';
import type { AppEnv } from '../env';
import { ApiError } from '../errors';
import { apiKeyFromHeaders } from './api-key';
import type { Authenticator } from './authenticate';

/** Looks up the policy of a Hono route (method, `/api/bot/:id` style path). */
export type PolicyLookup = (method: string, path: string) => RoutePolicy | undefined;

/** Enforces `policy` for `caller`: the shared rules' refusal becomes the api's error answer. */
function enforce(policy: RoutePolicy, caller: Caller, botId?: string): void {
  const refusal = refusalOf(policy, caller, botId);
  if (refusal) throw new ApiError(refusal.status, refusal.phrase);
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
      // Nobody is looked up on a public route; only whether the request brings a key matters.
      const key = apiKeyFromHeaders(c.req.header('authorization'), c.req.header('x-api-key'));
      enforce(policy, { credential: key ? 'api-key' : undefined });
      return next();
    }
    const principal = await authenticate(c);
    const botId =
      policy.botParam === undefined ? undefined : routeParams(route.path, c.req.path)[policy.botParam];
    enforce(policy, principal ? { credential: principal.credential.kind, subject: principal } : {}, botId);
    // `enforce` refused the anonymous caller of a route that is not public.
    if (principal) c.set('principal', principal);
    return next();
  };
}
