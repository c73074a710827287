/**
 * The cross-site check (DECISIONS.md): a state-changing request that carries a session cookie and an
 * Origin (or Referer) from another host is refused. Requests with only an API key skip it: a key is
 * never sent by a browser on its own, so it cannot be ridden cross-site.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { say } from '../../shared/i18n/phrases';
import { hasAnySessionCookie } from '../access/sessions';
import type { AppEnv } from '../env';
import { ApiError } from '../errors';
import { ownHosts, type ProxyTrust } from './client-view';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

function hostOf(value: string | undefined): string | undefined {
  if (!value) return undefined;
  try {
    return new URL(value).host;
  } catch {
    return 'invalid';
  }
}

/**
 * True when a request carries a session cookie and comes from a page on another host than the
 * service's own (the host the browser requested, port included, or PUBLIC_URL's: client-view.ts).
 */
export function isCrossSiteCookieRequest(c: Context<AppEnv>, trust: ProxyTrust): boolean {
  if (!hasAnySessionCookie(c)) return false;
  const from = hostOf(c.req.header('origin')) ?? hostOf(c.req.header('referer'));
  return from !== undefined && !ownHosts(c, trust).has(from);
}

export function crossSiteCheck(trust: ProxyTrust): MiddlewareHandler<AppEnv> {
  return async function crossSite(c, next) {
    if (!SAFE_METHODS.has(c.req.method) && isCrossSiteCookieRequest(c, trust)) {
      throw new ApiError(403, say.crossSite());
    }
    await next();
  };
}
