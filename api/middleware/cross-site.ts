/**
 * The cross-site check (DECISIONS.md): a state-changing request that carries a session cookie and an
 * Origin (or Referer) from another host is refused. Requests with only an API key skip it: a key is
 * never sent by a browser on its own, so it cannot be ridden cross-site.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { hasAnySessionCookie } from '../auth/sessions';
import type { AppEnv } from '../env';
import { ApiError } from '../errors';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function hostOf(value: string | undefined): string | undefined {
  if (!value) return undefined;
  try {
    return new URL(value).host;
  } catch {
    return 'invalid';
  }
}

/** True when a request carries a session cookie and comes from a page on another host. */
export function isCrossSiteCookieRequest(c: Context<AppEnv>, trustProxy: boolean): boolean {
  if (!hasAnySessionCookie(c)) return false;
  const from = hostOf(c.req.header('origin')) ?? hostOf(c.req.header('referer'));
  const forwardedHost = trustProxy ? c.req.header('x-forwarded-host')?.split(',')[0]?.trim() : undefined;
  const own = forwardedHost || c.req.header('host') || new URL(c.req.url).host;
  return from !== undefined && from !== own;
}

export function crossSiteCheck(trustProxy: boolean): MiddlewareHandler<AppEnv> {
  return async function crossSite(c, next) {
    if (!SAFE_METHODS.has(c.req.method) && isCrossSiteCookieRequest(c, trustProxy)) {
      throw new ApiError(403, 'cross-site request refused');
    }
    await next();
  };
}
