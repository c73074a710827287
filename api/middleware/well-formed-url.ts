/**
 * Refuses, with 400 `{error}`, a request whose path or query does not decode: a stray `%`, or
 * percent-encoded bytes that are not UTF-8 (`%ED%A0%80`, an encoded lone surrogate). Hono keeps such
 * text undecoded instead of failing, so a handler would see `%` where it expects an id, and any code
 * that decodes a parameter again (the authorization layer reads bot ids from the path) would throw and
 * answer 500. Checked once, before anything else reads the URL.
 */
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../env';
import { ApiError } from '../errors';

function decodes(text: string): boolean {
  try {
    decodeURIComponent(text);
    return true;
  } catch {
    return false;
  }
}

export function wellFormedUrl(): MiddlewareHandler<AppEnv> {
  return async function wellFormed(c, next) {
    // Only a `%` can start a malformed escape; most URLs have none and cost nothing more here.
    if (!c.req.url.includes('%')) return next();
    const { pathname, search } = new URL(c.req.url);
    if (!decodes(pathname)) throw new ApiError(400, 'the request path is not valid percent-encoded UTF-8');
    if (!decodes(search)) throw new ApiError(400, 'the query string is not valid percent-encoded UTF-8');
    await next();
  };
}
