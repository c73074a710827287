/**
 * Per-bot playback settings that survive a rebuild of the bot instance (SPEC "Persisted playback
 * settings"): the volume, the saved play mode and the loudness normalization. Temporary mode switches must not come through here.
 */
import { eq } from 'drizzle-orm';
import type { Db } from '../../../shared/db/client';
import { bots } from '../../../shared/db/schema';
import type { AutoplayMode, PlayMode } from '../../../shared/domain/constants';
import type { LoudnessSetting } from '../../../shared/domain/loudness';

export async function saveVolume(db: Db, botId: string, volume: number): Promise<void> {
  await db.update(bots).set({ volume }).where(eq(bots.id, botId));
}

export async function saveLoudness(db: Db, botId: string, setting: LoudnessSetting): Promise<void> {
  await db
    .update(bots)
    .set({ loudnessNormalization: setting.enabled, loudnessTarget: setting.targetLufs })
    .where(eq(bots.id, botId));
}

export async function saveAutoplay(db: Db, botId: string, autoplay: AutoplayMode): Promise<void> {
  await db.update(bots).set({ autoplay }).where(eq(bots.id, botId));
}

export async function saveCrossfade(db: Db, botId: string, crossfadeSeconds: number): Promise<void> {
  await db.update(bots).set({ crossfadeSeconds }).where(eq(bots.id, botId));
}

export async function saveMode(db: Db, botId: string, playMode: PlayMode): Promise<void> {
  await db.update(bots).set({ playMode }).where(eq(bots.id, botId));
}
