/**
 * Gives every request an id (the caller's `X-Request-Id` when it is sane, a new one otherwise),
 * echoes it in the response and logs the request when it finishes.
 */
import { randomUUID } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { logger } from '../../shared/logger';
import type { AppEnv } from '../env';

const log = logger('api.http');
const SANE_ID = /^[\w.-]{1,64}$/;

export function requestId(): MiddlewareHandler<AppEnv> {
  return async function requestIdMiddleware(c, next) {
    const given = c.req.header('x-request-id');
    const id = given && SANE_ID.test(given) ? given : randomUUID();
    c.set('requestId', id);
    const started = performance.now();
    try {
      await next();
    } finally {
      c.header('X-Request-Id', id);
      log.info(
        {
          requestId: id,
          method: c.req.method,
          path: c.req.path,
          status: c.res.status,
          ms: Math.round(performance.now() - started),
        },
        'request',
      );
    }
  };
}
