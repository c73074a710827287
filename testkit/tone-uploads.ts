/**
 * Songs for end-to-end tests and the benches: tones rendered by ffmpeg into a WAV file (or any audio
 * file the caller writes) registered as a `local` upload (DATA_DIR/uploads), so the whole play path
 * runs on real audio.
 */
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Db } from '../shared/db/client';
import { uploads } from '../shared/db/schema';
import type { Song } from '../shared/domain/schemas';
import { UPLOADS_DIR } from '../shared/sources/local/local-source';
import { FFMPEG } from './audio-signals';

export interface Tone {
  frequencyHz: number;
  seconds: number;
  amplitude?: number;
}

/** Renders the tones (or writes `bytes`, e.g. a corrupt file) as an upload and returns its Song. */
export function addToneUpload(
  db: Db,
  dataDir: string,
  name: string,
  tones: Tone[],
  bytes?: Buffer,
): Promise<Song> {
  return addUpload(db, dataDir, {
    name,
    extension: 'wav',
    durationSeconds: tones.reduce((sum, t) => sum + t.seconds, 0),
    write: (path) => (bytes ? writeFileSync(path, bytes) : renderTones(path, tones)),
  });
}

/** One steady tone per `[name, frequency]`, named "<name> Tone", `seconds` long: songs told apart by ear. */
export async function addNamedTones(
  db: Db,
  dataDir: string,
  tones: readonly (readonly [name: string, frequencyHz: number])[],
  seconds: number,
): Promise<Song[]> {
  const songs: Song[] = [];
  for (const [name, frequencyHz] of tones)
    songs.push(await addToneUpload(db, dataDir, `${name} Tone`, [{ frequencyHz, seconds }]));
  return songs;
}

export interface UploadFile {
  name: string;
  /** The stored file's extension, e.g. `mp3`. */
  extension: string;
  durationSeconds: number;
  /** Writes the file's bytes to `path`. */
  write(path: string): void;
}

/** Stores a file in DATA_DIR/uploads, registers it as an upload and returns its Song. */
export async function addUpload(db: Db, dataDir: string, file: UploadFile): Promise<Song> {
  const id = randomUUID();
  const storedName = `${id}.${file.extension}`;
  mkdirSync(join(dataDir, UPLOADS_DIR), { recursive: true });
  file.write(join(dataDir, UPLOADS_DIR, storedName));
  await db.insert(uploads).values({
    id,
    originalName: `${file.name}.${file.extension}`,
    storedName,
    sizeBytes: 0,
    durationSeconds: Math.round(file.durationSeconds),
    createdAt: new Date(),
  });
  const { name, durationSeconds: duration } = file;
  return { id, name, artist: 'tests', album: 'tones', duration, coverUrl: '', platform: 'local' };
}

/** ffmpeg's `sine` source plays at 1/8 of full scale; `volume` scales it to the tone's amplitude. */
const SINE_SOURCE_AMPLITUDE = 1 / 8;

/** Renders the tones back to back: one `sine` source per tone, joined by `concat` (48 kHz stereo WAV). */
function renderTones(path: string, tones: Tone[]): void {
  const inputs = tones.flatMap((t) => [
    '-f',
    'lavfi',
    '-i',
    `sine=frequency=${t.frequencyHz}:sample_rate=48000:duration=${t.seconds}`,
  ]);
  const scaled = tones.map((t, i) => `[${i}:a]volume=${(t.amplitude ?? 0.5) / SINE_SOURCE_AMPLITUDE}[a${i}]`);
  const joined = `${tones.map((_, i) => `[a${i}]`).join('')}concat=n=${tones.length}:v=0:a=1,pan=stereo|c0=c0|c1=c0[out]`;
  const run = spawnSync(FFMPEG, [
    ...['-hide_banner', '-loglevel', 'error', '-y', ...inputs],
    ...['-filter_complex', [...scaled, joined].join(';'), '-map', '[out]', path],
  ]);
  if (run.status !== 0) throw new Error(`ffmpeg could not render ${path}: ${run.stderr.toString()}`);
}
