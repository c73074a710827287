/**
 * GET /metrics: this api's metrics, this thread's (platform errors, the process's figures) and, where
 * the app is given them, a daemon's (`make run`: the daemon's thread, asked over its port), as one text.
 * Read with the scraper's token (METRICS_TOKEN) or an admin's credentials.
 */
import { OpenAPIHono } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { getMetrics } from '../../openapi/routes/metrics';
import {
  exposition,
  METRICS_CONTENT_TYPE,
  type MetricsSource,
  registrySource,
  threadRegistry,
} from '../../shared/metrics/exposition';
import { bearsMetricsToken } from '../../shared/metrics/metrics-token';
import type { AppEnv } from '../env';
import { validationHook } from '../errors';
import type { ApiMetrics } from './api-metrics';

/** The token lets a scraper in; anyone else goes through the authorization layer (admins only). */
export function metricsAccess(
  token: string | undefined,
  authorize: MiddlewareHandler<AppEnv>,
): MiddlewareHandler<AppEnv> {
  return (c, next) => (bearsMetricsToken(c.req.header('authorization'), token) ? next() : authorize(c, next));
}

export function metricsRoutes(metrics: ApiMetrics, others: readonly MetricsSource[] = []) {
  const sources = [registrySource(metrics.registry), registrySource(threadRegistry), ...others];
  return new OpenAPIHono<AppEnv>({ defaultHook: validationHook }).openapi(getMetrics, async (c) =>
    c.text(await exposition(sources), 200, { 'content-type': METRICS_CONTENT_TYPE }),
  );
}
