/** Bot routes (SPEC.md "Bots: /api/bot"). */
import { OpenAPIHono } from '@hono/zod-openapi';
import { asc } from 'drizzle-orm';
import { getBot, listBots } from '../../openapi/routes/bots';
import { bots } from '../../shared/db/schema';
import { BotStatusSchema } from '../../shared/domain/schemas';
import { actorOf, canReachBot } from '../auth/principal';
import { askBot } from '../daemon-client';
import type { AppDeps, AppEnv } from '../env';
import { ApiError, validationHook } from '../errors';
import { listedStatus } from './bot-status';
import { findBot } from './find-bot';

export function botRoutes(deps: AppDeps) {
  const { db } = deps;
  return new OpenAPIHono<AppEnv>({ defaultHook: validationHook })
    .openapi(listBots, async (c) => {
      const principal = c.get('principal')!;
      const rows = (await db.select().from(bots).orderBy(asc(bots.createdAt))).filter((bot) =>
        canReachBot(principal, bot.id),
      );
      const statuses = await Promise.all(rows.map((bot) => listedStatus(deps, bot, actorOf(principal))));
      return c.json({ bots: statuses }, 200);
    })
    .openapi(getBot, async (c) => {
      const bot = await findBot(db, c.req.valid('param').id);
      const reply = await askBot(deps, bot.id, 'status', undefined, actorOf(c.get('principal')!));
      if (!reply.ok) throw new ApiError(500, reply.message ?? 'the bot daemon could not report the status');
      return c.json(BotStatusSchema.parse(reply.data), 200);
    });
}
