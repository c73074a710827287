/**
 * `X-Content-Type-Options: nosniff` on every answer: a browser must take each body for the type the
 * api declares, never guess a more dangerous one. Uploaded covers and bot avatars are served as the
 * image types their bytes were checked to be; with this header even a file that is an image and
 * something else at once (a polyglot) cannot be run as a script or a page. Set before the handler, so
 * the answer is built with it (see request-id.ts on why not afterwards).
 */
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from '../env';

export function contentTypeOptions(): MiddlewareHandler<AppEnv> {
  return async function noSniff(c, next) {
    c.header('X-Content-Type-Options', 'nosniff');
    await next();
  };
}
