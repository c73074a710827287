/** /api/auth: the platform logins every bot shares. */
import { OpenAPIHono } from '@hono/zod-openapi';
import { testJellyfin } from '../../openapi/routes/platform-auth';
import { readSettings } from '../../shared/settings/settings';
import { testJellyfinConnection } from '../../shared/sources/jellyfin/jellyfin-connection-test';
import type { AppDeps, AppEnv } from '../env';
import { validationHook } from '../errors';

export function platformAuthRoutes({ db }: AppDeps) {
  return new OpenAPIHono<AppEnv>({ defaultHook: validationHook }).openapi(testJellyfin, async (c) =>
    c.json(await testJellyfinConnection(c.req.valid('json'), (await readSettings(db)).jellyfin), 200),
  );
}
