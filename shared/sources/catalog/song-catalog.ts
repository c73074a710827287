/**
 * The look-up side of a music source: finding songs by text or id and listing collections. One
 * catalog per platform, registered in `catalogs.ts`; a platform without one is not available in this
 * build (the api answers 501). Playing (stream resolution) is the daemon's side of a source.
 *
 * Every method answers a Result: an error is a platform that could not answer (network, refusal,
 * unexpected shape), as a readable sentence; "no such item" is an ok `undefined`.
 */
import type { Song } from '../../domain/schemas';
import type { Result } from '../../result';

/** A collection's songs. `totalCount` is set when the source dropped unplayable ones: the count before. */
export interface SongList {
  songs: Song[];
  totalCount?: number;
}

export interface SongCatalog {
  /** Songs matching `query`, best first, skipping the first `offset`. */
  search(query: string, limit: number, offset?: number): Promise<Result<Song[]>>;
  /** The song with this id, or undefined when the platform does not know it. */
  song(id: string): Promise<Result<Song | undefined>>;
  /** A playlist's songs, or undefined when there is no such playlist. */
  playlist?(id: string): Promise<Result<SongList | undefined>>;
  album?(id: string): Promise<Result<SongList | undefined>>;
  /**
   * Personal FM: a batch of songs picked for an account. `credential` is the caller's own linked
   * account (its `personal_links` row); without one the platform's shared bot login is used.
   */
  personalFm?(credential?: string): Promise<Result<Song[]>>;
}
