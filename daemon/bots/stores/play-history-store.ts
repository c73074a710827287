/** The play history of a bot: one row each time a track starts, with who asked for it. */

import { desc, eq } from 'drizzle-orm';
import type { Db } from '../../../shared/db/client';
import { playHistory } from '../../../shared/db/schema';
import type { PlayableSong } from '../playable-song';

export async function recordPlay(db: Db, botId: string, song: PlayableSong, playedAt: Date): Promise<void> {
  await db.insert(playHistory).values({
    botId,
    songId: song.id,
    name: song.name,
    artist: song.artist,
    album: song.album,
    coverUrl: song.coverUrl,
    platform: song.platform,
    playedAt,
    requestedBy: song.requestedBy ?? null,
    duration: song.duration,
  });
}

/** The bot's last `count` plays as `platform:id` keys (what autoplay must not bring back). */
export async function recentPlays(db: Db, botId: string, count: number): Promise<Set<string>> {
  const rows = await db
    .select({ platform: playHistory.platform, songId: playHistory.songId })
    .from(playHistory)
    .where(eq(playHistory.botId, botId))
    .orderBy(desc(playHistory.playedAt), desc(playHistory.id))
    .limit(count);
  return new Set(rows.map((row) => `${row.platform}:${row.songId}`));
}
