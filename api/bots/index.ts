/** Bot routes (SPEC.md "Bots: /api/bot"). */
import { OpenAPIHono } from '@hono/zod-openapi';
import { getBot, listBots } from '../../openapi/routes/bots';
import { actorOf, principalOf } from '../auth/principal';
import type { AppEnv } from '../env';
import { validationHook } from '../errors';
import type { BotClient } from './bot-client';
import type { BotLister } from './bot-list';

export function botRoutes(client: BotClient, visibleBots: BotLister) {
  return new OpenAPIHono<AppEnv>({ defaultHook: validationHook })
    .openapi(listBots, async (c) => c.json({ bots: await visibleBots(principalOf(c)) }, 200))
    .openapi(getBot, async (c) => {
      // One bot's status is always asked of its daemon: it tells an unknown bot (404) from one no
      // daemon runs (503), which a listing shows as disconnected instead.
      const { data } = await client.call(c.req.valid('param').id, 'status', {}, actorOf(principalOf(c)));
      return c.json(data, 200);
    });
}
