/** Public service routes: health and the configured public URL. */
import { z } from '@hono/zod-openapi';
import { jsonResponse } from '../errors';
import { defineRoute } from '../policy';

export const HealthSchema = z
  .object({
    status: z.string().openapi({ example: 'ok' }),
    version: z.string().openapi({ example: '0.1.0 (v0.1.0-3-gabc1234)' }),
  })
  .openapi('Health');

export const getHealth = defineRoute({
  method: 'get',
  path: '/api/health',
  tags: ['System'],
  summary: 'Service health and version',
  policy: { access: 'public' },
  responses: { 200: jsonResponse(HealthSchema, 'The service is up') },
});

export const getPublicUrl = defineRoute({
  method: 'get',
  path: '/api/config/public-url',
  tags: ['System'],
  summary: 'The public URL the service is reached at (PUBLIC_URL), or null',
  policy: { access: 'public' },
  responses: {
    200: jsonResponse(z.object({ publicUrl: z.string().nullable() }).openapi('PublicUrl'), 'The public URL'),
  },
});
