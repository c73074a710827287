/** Bot routes (SPEC.md "Bots: /api/bot"). */
import { OpenAPIHono } from '@hono/zod-openapi';
import { asc } from 'drizzle-orm';
import { listBots } from '../../openapi/routes/bots';
import { bots } from '../../shared/db/schema';
import { actorOf, canReachBot } from '../auth/principal';
import type { AppDeps, AppEnv } from '../env';
import { validationHook } from '../errors';
import { listedStatus } from './bot-status';

export function botRoutes(deps: AppDeps) {
  return new OpenAPIHono<AppEnv>({ defaultHook: validationHook }).openapi(listBots, async (c) => {
    const principal = c.get('principal')!;
    const rows = (await deps.db.select().from(bots).orderBy(asc(bots.createdAt))).filter((bot) =>
      canReachBot(principal, bot.id),
    );
    const statuses = await Promise.all(rows.map((bot) => listedStatus(deps, bot, actorOf(principal))));
    return c.json({ bots: statuses }, 200);
  });
}
