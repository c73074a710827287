/**
 * What the daemon keeps in a bot's queue: a QueuedSong plus the `vip` hint from the Song it came
 * from, which a source needs at play time to resolve a preview. `vip` never leaves the daemon: replies
 * and state events carry plain QueuedSongs.
 */
import { z } from 'zod';
import { type QueuedSong, QueuedSongSchema, type Song } from '../../shared/domain/schemas';

export const PlayableSongSchema = QueuedSongSchema.extend({ vip: z.boolean().optional() });
export type PlayableSong = z.infer<typeof PlayableSongSchema>;

export function playableSong(song: Song, requestedBy: string): PlayableSong {
  return { ...song, requestedBy };
}

export function toQueuedSong(song: PlayableSong): QueuedSong {
  return QueuedSongSchema.parse(song);
}

/**
 * A live stream's song as shown while it plays: the stream's own title (ICY StreamTitle) as the name,
 * the station (the song's name) as the artist when it has none.
 */
export function withStreamTitle(song: PlayableSong, streamTitle: string | undefined): PlayableSong {
  if (streamTitle === undefined) return song;
  return { ...song, name: streamTitle, artist: song.artist || song.name };
}

/** A song as a live queue entry: with the queue's key for it (`entryId`) when it is still queued. */
export function toQueueEntry(song: PlayableSong, entryId: number | undefined): QueuedSong {
  const queued = toQueuedSong(song);
  return entryId === undefined ? queued : { ...queued, entryId };
}
