/**
 * The look-up side of a music source: finding songs by text or id and listing collections. One
 * catalog per platform, registered in `catalogs.ts`; a platform without one is not available in this
 * build (the api answers 501). Playing (stream resolution) is the daemon's side of a source.
 */
import type { Song } from '../../domain/schemas';

export interface SongCatalog {
  /** Songs matching `query`, best first, skipping the first `offset`. */
  search(query: string, limit: number, offset?: number): Promise<Song[]>;
  /** The song with this id, or undefined when the platform does not know it. */
  song(id: string): Promise<Song | undefined>;
  /** A playlist's songs, or undefined when there is no such playlist (or the source has none). */
  playlist?(id: string): Promise<Song[] | undefined>;
  album?(id: string): Promise<Song[] | undefined>;
}
