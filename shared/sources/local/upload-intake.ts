/**
 * Takes in one upload: the body is streamed to a temporary file in DATA_DIR/uploads, ffprobe checks
 * that it really is audio (and reads its tags, lyrics, loudness tags and cover), a video keeps its audio track only, and the
 * file is stored under a random id with its whitelisted extension. Whatever fails, no temporary or
 * half-written file is left behind.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, rename, stat, unlink } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { Db } from '../../db/client';
import { uploads } from '../../db/schema';
import { type Phrase, say } from '../../i18n/phrases';
import { err, ok, type Result } from '../../result';
import { extractCover, keepAudioOnly } from './audio-extract';
import { NOT_AUDIO, probeAudio } from './audio-probe';
import { readSyncedLyrics } from './id3-synced-lyrics';
import { UPLOADS_DIR } from './local-source';
import { receiveToFile } from './receive-file';
import { loudnessColumns } from './stored-loudness';
import { storedUploadName, titleFromFileName, type UploadName } from './upload-name';

/** SPEC.md Limits: an upload is at most 500 MB. */
export const UPLOAD_MAX_BYTES = 500 * 1024 * 1024;
/** Embedded lyrics past this are cut: far longer than any song's words. */
const MAX_LYRICS_CHARS = 256 * 1024;

export interface MediaTools {
  ffmpeg: string;
  ffprobe: string;
}

export type UploadRow = typeof uploads.$inferSelect;

export type IntakeError =
  | { kind: 'tooLarge' }
  /** The client's fault: the body broke off, or the bytes are not playable audio. */
  | { kind: 'refused'; phrase: Phrase }
  /** Ours: ffmpeg missing or failing on a file it could read. */
  | { kind: 'failed'; message: string };

export interface IntakeRequest {
  body: ReadableStream<Uint8Array>;
  name: UploadName;
  uploadedBy: string | null;
  maxBytes?: number;
}

export async function takeInUpload(
  db: Db,
  dataDir: string,
  tools: MediaTools,
  { body, name, uploadedBy, maxBytes = UPLOAD_MAX_BYTES }: IntakeRequest,
): Promise<Result<UploadRow, IntakeError>> {
  const folder = join(dataDir, UPLOADS_DIR);
  await mkdir(folder, { recursive: true });
  // No extension: ffprobe must judge the bytes, not the name (see audio-probe.ts).
  const incoming = join(folder, `.incoming-${randomUUID()}`);
  const received = await receiveToFile(body, incoming, maxBytes);
  if (!received.ok) {
    return err(
      received.error.kind === 'tooLarge'
        ? { kind: 'tooLarge' }
        : { kind: 'refused', phrase: say.uploadInterrupted() },
    );
  }
  try {
    return await store(db, folder, tools, incoming, name, uploadedBy);
  } finally {
    await unlink(incoming).catch(() => undefined);
  }
}

async function store(
  db: Db,
  folder: string,
  tools: MediaTools,
  incoming: string,
  name: UploadName,
  uploadedBy: string | null,
): Promise<Result<UploadRow, IntakeError>> {
  const probed = await probeAudio(tools.ffprobe, incoming);
  if (!probed.ok)
    return err({
      kind: 'refused',
      phrase: probed.error === NOT_AUDIO ? say.uploadNotAudio() : say.badRequest(probed.error),
    });
  const audio = probed.value;
  // Timed lyrics (ID3 SYLT, which ffprobe does not report) before the text ones.
  const lyrics = (await readSyncedLyrics(incoming)) ?? audio.lyrics ?? '';
  const { id, storedName } = storedUploadName(name.extension);
  // A cover is a nicety: a picture ffmpeg cannot take out leaves the song without one.
  const cover =
    audio.cover && (await extractCover(tools.ffmpeg, incoming, audio.cover, join(folder, `.cover-${id}`)));
  let path = join(folder, storedName);
  if (audio.hasVideo) {
    const kept = await keepAudioOnly(tools.ffmpeg, incoming, path, join(folder, `${id}.opus`));
    if (!kept.ok) return err({ kind: 'failed', message: kept.error });
    path = kept.value;
  } else {
    await rename(incoming, path);
  }
  const row: UploadRow = {
    id,
    originalName: name.originalName,
    storedName: basename(path),
    sizeBytes: (await stat(path)).size,
    durationSeconds: Math.round(audio.durationSeconds),
    title: audio.title ?? titleFromFileName(name.originalName),
    artist: audio.artist ?? '',
    album: audio.album ?? '',
    lyrics: lyrics.slice(0, MAX_LYRICS_CHARS),
    coverType: cover?.ok ? cover.value.type : null,
    coverData: cover?.ok ? cover.value.data : null,
    // Without loudness tags it stays unknown until measured (upload-loudness.ts).
    ...loudnessColumns(audio.loudness),
    uploadedBy,
    createdAt: new Date(),
    playedAt: null,
  };
  try {
    await db.insert(uploads).values(row);
  } catch (error) {
    await unlink(path).catch(() => undefined);
    throw error;
  }
  return ok(row);
}
