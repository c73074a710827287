/**
 * The shelves a platform may have beyond the common pages (platform-facts.ts `ShelfKind`), each a set
 * of catalog methods the api's routes for that shelf ask. The platform whose facts name the shelf
 * has them (its module's type checks it); the api finds it by the shelf, never by its value.
 */
import type { Album, Song } from '../domain/schemas';
import type { Result } from '../result';

/** One part of a video as the parts route lists it. */
export interface VideoPart {
  /** The part's song id, `<bvid>?p=<page>`. */
  id: string;
  page: number;
  title: string;
  /** Seconds. */
  duration: number;
}

export interface VideoParts {
  bvid: string;
  title: string;
  coverUrl: string;
  artist: string;
  parts: VideoPart[];
}

/** Shelf `popularVideos`: a video platform's popular videos, and a video's parts. */
export interface VideoShelves {
  popular(limit: number): Promise<Result<Song[]>>;
  /** A video's parts, each playable as its own song; undefined when there is no such video. */
  parts(reference: string): Promise<Result<VideoParts | undefined>>;
}

export interface Genre {
  id: string;
  name: string;
}

/** Shelves `latestAlbums`, `mostPlayed`, `genres`: a media library's pages (with its favorites). */
export interface LibraryShelves {
  latestAlbums(limit: number): Promise<Result<Album[]>>;
  mostPlayed(limit: number): Promise<Result<Song[]>>;
  favorites(limit: number): Promise<Result<Song[]>>;
  genres(limit: number): Promise<Result<Genre[]>>;
  genreSongs(genreId: string, limit: number): Promise<Result<Song[]>>;
}

/** Shelf `uploadedAlbums`: the albums the uploads' tags name. */
export interface UploadShelves {
  uploadedAlbums(limit: number): Promise<Result<Album[]>>;
}

/** The shelves that come with their own catalog methods, and those methods. */
export interface ShelfCatalogs {
  popularVideos: VideoShelves;
  latestAlbums: LibraryShelves;
  uploadedAlbums: UploadShelves;
}
