/** The avatar an admin stored for a bot: the default it shows when no cover art replaces it. */
import { eq } from 'drizzle-orm';
import type { Db } from '../../../shared/db/client';
import { botAvatars } from '../../../shared/db/schema';

export interface StoredAvatar {
  data: Uint8Array;
  updatedAt: Date;
}

export async function loadBotAvatar(db: Db, botId: string): Promise<StoredAvatar | undefined> {
  const row = await db.query.botAvatars.findFirst({ where: eq(botAvatars.botId, botId) });
  return row ? { data: new Uint8Array(row.data), updatedAt: row.updatedAt } : undefined;
}
