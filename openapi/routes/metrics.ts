/** `GET /metrics`: the service's metrics in the Prometheus text format (docs/metrics.md). */
import { z } from '@hono/zod-openapi';
import { defineRoute } from '../policy';

export const getMetrics = defineRoute({
  method: 'get',
  path: '/metrics',
  tags: ['System'],
  summary: 'Metrics in the Prometheus text format',
  description:
    'For a Prometheus scraper: `Authorization: Bearer <METRICS_TOKEN>` (the `metricsToken` scheme), ' +
    "or an admin's session or API key. Scaled out, every api process serves its own, and each daemon " +
    'serves its own on `DAEMON_METRICS_PORT`. The series are listed in docs/metrics.md.',
  policy: { access: 'admin' },
  // The admin's credentials (from the policy), or the scraper's token.
  security: [{ metricsToken: [] }],
  responses: {
    200: {
      description: 'The metrics (text format 0.0.4)',
      content: { 'text/plain': { schema: z.string() } },
    },
  },
});
