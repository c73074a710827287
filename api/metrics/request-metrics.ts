/**
 * Times every HTTP request and counts it under the route pattern that answered it (`/api/bot/:id`,
 * never the raw path, so a label has as many values as there are routes). Runs first, around all
 * other middleware; what it adds per request is one clock read before and after and one observation.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { matchedRoutes } from 'hono/route';
import type { AppEnv } from '../env';
import type { ApiMetrics } from './api-metrics';

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/**
 * The pattern of the route that answers: the first matched one that is not a middleware (`use` routes
 * match every method), as the router picks it. A request refused by a middleware (a 401) still counts
 * under the route it asked for; one no route matched is `unmatched`. The web UI's pages are `*`.
 */
function answeringRoute(c: Context): string {
  for (const route of matchedRoutes(c)) if (route.method !== 'ALL') return route.path;
  return 'unmatched';
}

export function requestMetrics(metrics: ApiMetrics): MiddlewareHandler<AppEnv> {
  return async function measureRequest(c, next) {
    const started = performance.now();
    await next();
    // A method anyone can make up is not a label value of its own.
    const method = METHODS.has(c.req.method) ? c.req.method : 'other';
    metrics.request(method, answeringRoute(c), c.res.status, (performance.now() - started) / 1000);
  };
}
