/**
 * Gives every request an id (the caller's `X-Request-Id` when it is sane, a new one otherwise),
 * echoes it in the response and logs the request when it finishes.
 *
 * The header is set BEFORE the handler runs, so `c.json()` and the error handler build their
 * response with it. Setting it afterwards on a finished response makes Hono copy that response into
 * a streamed one, which on @hono/node-server costs more than a whole bare route (README
 * "Performance"); only a response built without the context (none of ours) still takes that path.
 */
import { randomUUID } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import { logger } from '../../shared/logger';
import type { AppEnv } from '../env';

// The request line's fields are an id checked against SANE_ID, the method, the path (never the query)
// and two numbers: no secret to redact.
const log = logger('api.http', { noSecrets: true });
const SANE_ID = /^[\w.-]{1,64}$/;
const HEADER = 'X-Request-Id';

export function requestId(): MiddlewareHandler<AppEnv> {
  return async function requestIdMiddleware(c, next) {
    const given = c.req.header('x-request-id');
    const id = given && SANE_ID.test(given) ? given : randomUUID();
    c.set('requestId', id);
    c.header(HEADER, id);
    const started = performance.now();
    try {
      await next();
    } finally {
      if (c.res.headers.get(HEADER) !== id) c.header(HEADER, id);
      if (log.isLevelEnabled('info'))
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
