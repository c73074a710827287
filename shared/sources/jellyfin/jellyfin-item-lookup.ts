/**
 * One item by id through `/Items?Ids=…`, shared by the catalog (song and playlist look-ups) and the
 * source (which checks the song exists, and so renews an expired token, before handing ffmpeg an
 * audio URL). An unknown id answers an empty list, so "no such item" needs no 404 handling.
 */
import { ok, type Result } from '../../result';
import type { JellyfinClient, JellyfinRead } from './jellyfin-client';
import type { JellyfinQuery } from './jellyfin-http';
import { isJellyfinId, sameJellyfinId } from './jellyfin-ids';
import { type Item, ItemsSchema } from './jellyfin-schemas';

/** The item when the server knows it and it is of `type` (`Audio`, `Playlist`, …); else undefined. */
export async function findItem(
  client: JellyfinClient,
  id: string,
  type: string,
  query: JellyfinQuery = {},
): Promise<Result<JellyfinRead<Item> | undefined>> {
  if (!isJellyfinId(id)) return ok(undefined);
  const found = await client.get('/Items', { ...query, Ids: id }, ItemsSchema);
  if (!found.ok) return found;
  const { data, session } = found.value;
  const item = data.Items.find((entry) => sameJellyfinId(entry.Id, id) && entry.Type === type);
  return ok(item && { data: item, session });
}
