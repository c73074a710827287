/**
 * Which uploads some bot's queue holds, for quota eviction: every bot's live queue (asked of its
 * daemon), plus saved queue snapshots. A bot whose daemon does not answer in time might hold any
 * upload, so then every upload counts as queued and nothing is evicted.
 */
import type { Actor } from '../../shared/bus/messages';
import type { Db } from '../../shared/db/client';
import { bots, uploads } from '../../shared/db/schema';
import { uploadsInQueueSnapshots } from '../../shared/sources/local/upload-retention';
import type { BotClient } from '../bots/bot-client';

const EVICTION: Actor = { id: 'upload-quota', username: 'upload-quota', role: 'admin' };

export async function queuedUploadIds(db: Db, botClient: BotClient): Promise<Set<string>> {
  const referenced = await uploadsInQueueSnapshots(db);
  const rows = await db.select({ id: bots.id }).from(bots);
  const queues = await Promise.all(rows.map(({ id }) => botClient.probe(id, 'queue', EVICTION)));
  for (const answer of queues) {
    if (answer === 'timeout') {
      const all = await db.select({ id: uploads.id }).from(uploads);
      return new Set(all.map((row) => row.id));
    }
    if (answer === 'no-responders') continue;
    for (const song of answer.queue) if (song.platform === 'local') referenced.add(song.id);
  }
  return referenced;
}
