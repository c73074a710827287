/**
 * Per-bot playback settings that survive a rebuild of the bot instance (SPEC "Persisted playback
 * settings"): the volume and the saved play mode. Temporary mode switches must not come through here.
 */
import { eq } from 'drizzle-orm';
import type { Db } from '../../../shared/db/client';
import { bots } from '../../../shared/db/schema';
import type { PlayMode } from '../../../shared/domain/constants';

export async function saveVolume(db: Db, botId: string, volume: number): Promise<void> {
  await db.update(bots).set({ volume }).where(eq(bots.id, botId));
}

export async function saveMode(db: Db, botId: string, playMode: PlayMode): Promise<void> {
  await db.update(bots).set({ playMode }).where(eq(bots.id, botId));
}
