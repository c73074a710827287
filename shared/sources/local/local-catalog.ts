/** The `local` catalog: uploaded files, found by their original file name. */
import { desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { uploads } from '../../db/schema';
import type { Song } from '../../domain/schemas';
import { ok, type Result } from '../../result';
import type { SongCatalog } from '../song-catalog';

type UploadRow = typeof uploads.$inferSelect;

/** The file name without its extension is the best title an upload has. */
export function uploadToSong(upload: UploadRow): Song {
  return {
    id: upload.id,
    name: upload.originalName.replace(/\.[^.]+$/, ''),
    artist: '',
    album: '',
    duration: upload.durationSeconds,
    coverUrl: '',
    platform: 'local',
  };
}

export class LocalCatalog implements SongCatalog {
  constructor(private readonly db: Db) {}

  async search(query: string, limit: number, offset = 0): Promise<Result<Song[]>> {
    // LIKE wildcards in the query are matched literally.
    const pattern = `%${query.toLowerCase().replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
    const rows = await this.db
      .select()
      .from(uploads)
      .where(sql`lower(${uploads.originalName}) LIKE ${pattern} ESCAPE '\\'`)
      .orderBy(desc(uploads.createdAt))
      .limit(limit)
      .offset(offset);
    return ok(rows.map(uploadToSong));
  }

  async song(id: string): Promise<Result<Song | undefined>> {
    const row = await this.db.query.uploads.findFirst({ where: eq(uploads.id, id) });
    return ok(row && uploadToSong(row));
  }
}
