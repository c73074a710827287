import { eq } from 'drizzle-orm';
import type { Db } from '../../shared/db/client';
import { bots } from '../../shared/db/schema';
import { say } from '../../shared/i18n/phrases';
import { ApiError } from '../errors';

export type BotRow = typeof bots.$inferSelect;

/** A bot by id, or 404. Bot access was already checked by the route policy. */
export async function findBot(db: Db, id: string): Promise<BotRow> {
  const bot = await db.query.bots.findFirst({ where: eq(bots.id, id) });
  if (!bot) throw new ApiError(404, say.botNotFound());
  return bot;
}
