/** Bot routes (SPEC.md "Bots: /api/bot"). */
import { OpenAPIHono } from '@hono/zod-openapi';
import { asc } from 'drizzle-orm';
import { getBot, listBots } from '../../openapi/routes/bots';
import { bots } from '../../shared/db/schema';
import { actorOf, canReachBot, principalOf } from '../auth/principal';
import type { AppDeps, AppEnv } from '../env';
import { validationHook } from '../errors';
import type { BotClient } from './bot-client';

export function botRoutes({ db }: AppDeps, client: BotClient) {
  return new OpenAPIHono<AppEnv>({ defaultHook: validationHook })
    .openapi(listBots, async (c) => {
      const principal = principalOf(c);
      const rows = (await db.select().from(bots).orderBy(asc(bots.createdAt))).filter((bot) =>
        canReachBot(principal, bot.id),
      );
      const statuses = await Promise.all(rows.map((bot) => client.listedStatus(bot, actorOf(principal))));
      return c.json({ bots: statuses }, 200);
    })
    .openapi(getBot, async (c) => {
      const { data } = await client.call(c.req.valid('param').id, 'status', {}, actorOf(principalOf(c)));
      return c.json(data, 200);
    });
}
