/** GET /api/health and GET /api/config/public-url. */
import { OpenAPIHono } from '@hono/zod-openapi';
import { getHealth, getPublicUrl } from '../../openapi/routes/system';
import type { AppDeps, AppEnv } from '../env';
import { validationHook } from '../errors';

export function systemRoutes(deps: AppDeps) {
  return new OpenAPIHono<AppEnv>({ defaultHook: validationHook })
    .openapi(getHealth, (c) => c.json({ status: 'ok', version: deps.version }, 200))
    .openapi(getPublicUrl, (c) => c.json({ publicUrl: deps.config.publicUrl }, 200));
}
