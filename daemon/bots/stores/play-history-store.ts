/** The play history of a bot: one row each time a track starts, with who asked for it. */
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
