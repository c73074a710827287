/**
 * A `.lrc` file sent to the upload route: the lyrics of an earlier upload with the same name. It is
 * attached to the most recent upload whose file name without its extension is the `.lrc`'s name
 * without `.lrc`, compared without regard to case (`Song.LRC` is for `song.mp3`), and it replaces the
 * lyrics that upload had, embedded ones included. With no such upload it is refused: send the audio
 * first.
 *
 * The text is read whole (at most 512 KB) as UTF-8, or UTF-16 when it starts with a byte order mark;
 * bytes that are not UTF-8 are read as GB 18030, as many Chinese LRC files are written. A file with
 * NUL bytes is not text and is refused.
 */
import { desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { uploads } from '../../db/schema';
import { err, ok, type Result } from '../../result';
import { escapeLike, type UploadSongRow, uploadSongColumns } from './local-catalog';
import { titleFromFileName } from './upload-name';

export const LYRICS_FILE_MAX_BYTES = 512 * 1024;
/** How many same-named uploads are looked at for the exact name (the LIKE also matches `a.b.mp3` for `a`). */
const CANDIDATES = 50;

export type LyricsIntakeError =
  | { kind: 'tooLarge' }
  /** The client's fault: not text, empty, or no upload of that name to attach it to. */
  | { kind: 'refused'; message: string }
  | { kind: 'noUpload'; message: string };

export interface LyricsFile {
  body: ReadableStream<Uint8Array>;
  /** The `.lrc` file's name as sent (its last path segment). */
  originalName: string;
}

/** Reads the lyrics file and stores it as its upload's lyrics; answers that upload. */
export async function attachLyricsFile(
  db: Db,
  { body, originalName }: LyricsFile,
): Promise<Result<UploadSongRow, LyricsIntakeError>> {
  const bytes = await readBounded(body, LYRICS_FILE_MAX_BYTES);
  if (!bytes) return err({ kind: 'tooLarge' });
  const text = decodeLyrics(bytes);
  if (text === undefined) return err({ kind: 'refused', message: 'the .lrc file is not text' });
  if (!text.trim()) return err({ kind: 'refused', message: 'the .lrc file is empty' });
  const baseName = titleFromFileName(originalName);
  const upload = await latestUploadNamed(db, baseName);
  if (!upload) {
    return err({
      kind: 'noUpload',
      message: `no uploaded song is named ${baseName}; upload the song before its lyrics`,
    });
  }
  const lyrics = text.replace(/\r\n?/g, '\n').trim();
  await db.update(uploads).set({ lyrics }).where(eq(uploads.id, upload.id));
  return ok({ ...upload, lyrics });
}

/** The newest upload whose name without its extension is `baseName` (case-free). */
async function latestUploadNamed(db: Db, baseName: string): Promise<UploadSongRow | undefined> {
  // LIKE is case-free for ASCII letters only: it narrows, the exact check below decides.
  const prefix = `${escapeLike(baseName)}.%`;
  const candidates = await db
    .select(uploadSongColumns)
    .from(uploads)
    .where(sql`${uploads.originalName} LIKE ${prefix} ESCAPE '\\'`)
    .orderBy(desc(uploads.createdAt))
    .limit(CANDIDATES);
  const wanted = baseName.toLowerCase();
  return candidates.find((row) => titleFromFileName(row.originalName).toLowerCase() === wanted);
}

/** The whole body, or undefined once it is longer than `maxBytes` (the rest is not read). */
async function readBounded(body: ReadableStream<Uint8Array>, maxBytes: number): Promise<Buffer | undefined> {
  const chunks: Uint8Array[] = [];
  let length = 0;
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return Buffer.concat(chunks, length);
    length += value.length;
    if (length > maxBytes) {
      await reader.cancel();
      return undefined;
    }
    chunks.push(value);
  }
}

function decodeLyrics(bytes: Buffer): string | undefined {
  let text: string;
  if (bytes[0] === 0xff && bytes[1] === 0xfe) text = new TextDecoder('utf-16le').decode(bytes);
  else if (bytes[0] === 0xfe && bytes[1] === 0xff) text = new TextDecoder('utf-16be').decode(bytes);
  else {
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      text = new TextDecoder('gb18030').decode(bytes);
    }
  }
  return text.includes('\u0000') ? undefined : text;
}
