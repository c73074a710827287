/**
 * The `local` catalog: uploaded files, found by file name, title or artist, and the albums their tags
 * name (an album's id is its name: uploads have no album ids of their own).
 */
import { and, asc, desc, eq, getTableColumns, ne, or, sql } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import type { Db } from '../../db/client';
import { uploads } from '../../db/schema';
import type { Album, Song } from '../../domain/schemas';
import { ok, type Result } from '../../result';
import type { AccountStatus, SongCatalog, SongList } from '../song-catalog';
import { titleFromFileName } from './upload-name';

/** Every column but the cover's bytes, which only the cover route reads. */
const { coverData: _, ...songColumns } = getTableColumns(uploads);
export const uploadSongColumns = songColumns;
export type UploadSongRow = Omit<typeof uploads.$inferSelect, 'coverData'>;

/** `text` for a LIKE pattern with `ESCAPE '\'`: its own wildcards match literally. */
export const escapeLike = (text: string): string => text.replace(/[\\%_]/g, (ch) => `\\${ch}`);

/** Where an upload's embedded cover is served (GET /api/music/local/cover/{id}). */
export const localCoverPath = (id: string): string => `/api/music/local/cover/${encodeURIComponent(id)}`;

/** An upload as a Song: its tags, with the file name as the title of an untagged file. */
export function uploadToSong(upload: UploadSongRow): Song {
  return {
    id: upload.id,
    name: upload.title || titleFromFileName(upload.originalName),
    artist: upload.artist,
    album: upload.album,
    duration: upload.durationSeconds,
    coverUrl: upload.coverType ? localCoverPath(upload.id) : '',
    platform: 'local',
  };
}

/** `column` holds `query` in any case; LIKE wildcards in the query are matched literally. */
const holds = (query: string) => {
  const pattern = `%${escapeLike(query.toLowerCase())}%`;
  return (column: SQLiteColumn) => sql`lower(${column}) LIKE ${pattern} ESCAPE '\\'`;
};

export class LocalCatalog implements SongCatalog {
  constructor(private readonly db: Db) {}

  async search(query: string, limit: number, offset = 0): Promise<Result<Song[]>> {
    const matches = holds(query);
    const rows = await this.db
      .select(uploadSongColumns)
      .from(uploads)
      .where(or(matches(uploads.originalName), matches(uploads.title), matches(uploads.artist)))
      .orderBy(desc(uploads.createdAt))
      .limit(limit)
      .offset(offset);
    return ok(rows.map(uploadToSong));
  }

  /**
   * Uploads have no relation to each other the server could know: songs "like" one are other uploads
   * at random, the same artist's first (what a listener of an album of uploads expects next).
   */
  async relatedSongs(song: Song, limit: number): Promise<Result<Song[]>> {
    const rows = await this.db
      .select(uploadSongColumns)
      .from(uploads)
      .where(ne(uploads.id, song.id))
      .orderBy(desc(sql`${uploads.artist} = ${song.artist} AND ${song.artist} <> ''`), sql`random()`)
      .limit(limit);
    return ok(rows.map(uploadToSong));
  }

  /**
   * The albums the uploads' tags name whose name or artist holds `query` ('' for all), the one with the
   * newest upload first; each shows the embedded cover of one of its songs, where one has a cover.
   */
  async searchAlbums(query: string, limit: number, offset = 0): Promise<Result<Album[]>> {
    const matches = holds(query);
    const rows = await this.db
      .select({
        name: uploads.album,
        artist: sql<string>`max(${uploads.artist})`,
        songCount: sql<number>`count(*)`,
        coverId: sql<string | null>`max(case when ${uploads.coverType} is not null then ${uploads.id} end)`,
      })
      .from(uploads)
      .where(and(ne(uploads.album, ''), or(matches(uploads.album), matches(uploads.artist))))
      .groupBy(uploads.album)
      .orderBy(desc(sql`max(${uploads.createdAt})`))
      .limit(limit)
      .offset(offset);
    return ok(
      rows.map((row) => ({
        id: row.name,
        name: row.name,
        artist: row.artist,
        coverUrl: row.coverId ? localCoverPath(row.coverId) : '',
        songCount: Number(row.songCount),
        platform: 'local' as const,
      })),
    );
  }

  /** Shelf `uploadedAlbums`: every album, the one with the newest upload first. */
  uploadedAlbums(limit: number): Promise<Result<Album[]>> {
    return this.searchAlbums('', limit);
  }

  /**
   * An album's uploads, by file name (which usually starts with the track number: the track tag is not
   * kept); undefined when no upload names the album.
   */
  async album(id: string): Promise<Result<SongList | undefined>> {
    const rows = await this.db
      .select(uploadSongColumns)
      .from(uploads)
      .where(eq(uploads.album, id))
      .orderBy(asc(uploads.originalName), asc(uploads.createdAt));
    return ok(rows.length > 0 ? { songs: rows.map(uploadToSong) } : undefined);
  }

  async song(id: string): Promise<Result<Song | undefined>> {
    const [row] = await this.db.select(uploadSongColumns).from(uploads).where(eq(uploads.id, id)).limit(1);
    return ok(row && uploadToSong(row));
  }

  /** What the file's tags held, or the `.lrc` uploaded for it; '' for none, undefined for no such upload. */
  async lyrics(id: string): Promise<Result<string | undefined>> {
    const [row] = await this.db
      .select({ lyrics: uploads.lyrics })
      .from(uploads)
      .where(eq(uploads.id, id))
      .limit(1);
    return ok(row?.lyrics);
  }

  /** Uploaded files need no login (SPEC: `local` is always logged in); the status names what they are. */
  async accountStatus(): Promise<Result<AccountStatus>> {
    return ok({ loggedIn: true, nickname: 'uploads' });
  }
}
