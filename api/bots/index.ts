/** Bot routes (SPEC.md "Bots: /api/bot"). */
import { OpenAPIHono } from '@hono/zod-openapi';
import { getBot, listBots } from '../../openapi/routes/bots';
import { actorOf, principalOf } from '../access/principal';
import type { AppEnv } from '../env';
import { validationHook } from '../errors';
import type { BotClient } from './bot-client';
import type { BotLister } from './bot-list';
import type { BotStatusView } from './status-view';

export function botRoutes(client: BotClient, visibleBots: BotLister, statuses: BotStatusView) {
  return new OpenAPIHono<AppEnv>({ defaultHook: validationHook })
    .openapi(listBots, async (c) => c.json({ bots: await visibleBots(principalOf(c)) }, 200))
    .openapi(getBot, async (c) => {
      const id = c.req.valid('param').id;
      // What its daemon said within the last second stands; otherwise the daemon is asked, which also
      // tells an unknown bot (404) from one no daemon runs (503), where a listing shows it disconnected.
      const fresh = statuses.freshStatus(id);
      if (fresh) return c.json(fresh, 200);
      const { data } = await client.call(id, 'status', {}, actorOf(principalOf(c)));
      return c.json(data, 200);
    });
}
