/** The `local` catalog: uploaded files, found by file name, title or artist. */
import { desc, eq, getTableColumns, or, sql } from 'drizzle-orm';
import type { SQLiteColumn } from 'drizzle-orm/sqlite-core';
import type { Db } from '../../db/client';
import { uploads } from '../../db/schema';
import type { Song } from '../../domain/schemas';
import { ok, type Result } from '../../result';
import type { AccountStatus, SongCatalog } from '../song-catalog';
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

export class LocalCatalog implements SongCatalog {
  constructor(private readonly db: Db) {}

  async search(query: string, limit: number, offset = 0): Promise<Result<Song[]>> {
    // LIKE wildcards in the query are matched literally.
    const pattern = `%${escapeLike(query.toLowerCase())}%`;
    const matches = (column: SQLiteColumn) => sql`lower(${column}) LIKE ${pattern} ESCAPE '\\'`;
    const rows = await this.db
      .select(uploadSongColumns)
      .from(uploads)
      .where(or(matches(uploads.originalName), matches(uploads.title), matches(uploads.artist)))
      .orderBy(desc(uploads.createdAt))
      .limit(limit)
      .offset(offset);
    return ok(rows.map(uploadToSong));
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
