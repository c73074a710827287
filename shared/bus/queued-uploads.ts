/**
 * Which uploads some bot's queue holds (SPEC "Local upload"), for both ways an upload is removed: the
 * daemon's janitor (played files) and the api's quota eviction (oldest files). A bot's queue lives
 * with the daemon that runs it, read by the `heldSongs` op of the bus table (its queue and the queue
 * an Undo could bring back); a bot nobody runs has only its stored snapshot, and the snapshots of
 * every bot count too. So do the saved queues: one is a queue put aside to be loaded into a bot
 * again, and loading it must not find its uploads gone (when the last saved queue listing a played
 * upload is deleted, the next sweep takes the file).
 *
 * One rule for a queue that cannot be read: a bot whose owner did not answer (too slow, the bus is
 * down, its handler failed, a refusal) might hold any upload, so the answer is "unknown" and the
 * caller deletes nothing. Keeping a file too long is harmless; deleting a queued one is not. Only "no
 * daemon runs the bot" is a definite answer: its queue is its snapshot, already counted.
 */
import type { Db } from '../db/client';
import { bots } from '../db/schema';
import { UPLOADS_PLATFORM } from '../domain/platforms';
import { uploadsInStoredQueues } from '../sources/local/upload-retention';
import { requestOp } from './bot-request';
import { type Bus, BusError } from './bus';
import type { Actor } from './messages';

/** A song as far as holding an upload goes: a `local` song's id is its upload's id. */
export type QueuedSong = { id: string; platform: string };

export interface QueueReaders {
  db: Db;
  bus: Bus;
  /** The queues a daemon has at hand (its own bots'), by bot id; the others are asked over the bus. */
  ownQueues?: () => ReadonlyMap<string, readonly QueuedSong[]>;
}

/** Who asks the bots for their queues (a read: any role would be answered; the daemon logs it). */
const RETENTION: Actor = { id: 'upload-retention', username: 'upload-retention', role: 'admin' };

/** The uploads some queue (live, snapshot or saved) holds; `undefined` when a bot's queue is unreadable. */
export async function queuedUploadIds({
  db,
  bus,
  ownQueues = () => new Map(),
}: QueueReaders): Promise<Set<string> | undefined> {
  const held = await uploadsInStoredQueues(db);
  const own = ownQueues();
  const rows = await db.select({ id: bots.id }).from(bots);
  // Every other bot is asked at once: one slow daemon costs one bus deadline, not one per bot.
  const queues = await Promise.all(rows.map(({ id }) => own.get(id) ?? liveQueue(bus, id)));
  for (const queue of queues) {
    if (queue === undefined) return undefined;
    for (const song of queue) if (song.platform === UPLOADS_PLATFORM) held.add(song.id);
  }
  return held;
}

/**
 * The songs the bot holds as its daemon answers (its queue and the one an Undo could bring back); []
 * when no daemon runs it; undefined when that is unknown.
 */
async function liveQueue(bus: Bus, botId: string): Promise<readonly QueuedSong[] | undefined> {
  try {
    return (await requestOp(bus, botId, 'heldSongs', {}, RETENTION)).data?.songs;
  } catch (error) {
    if (error instanceof BusError && error.failure === 'no-responders') return [];
    return undefined;
  }
}
