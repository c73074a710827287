/**
 * The file name of an upload, as the client sends it in the `x-filename` header (percent-encoded
 * UTF-8 allowed, since header values are bytes). The name is only ever shown to people: what lands on
 * disk is a random id plus a whitelisted extension (`storedUploadName`), so nothing in the name can
 * reach the file system.
 */
import { randomUUID } from 'node:crypto';
import { err, ok, type Result } from '../../result';

/**
 * Extensions an upload may carry. Audio containers ffmpeg decodes, plus the common video containers
 * (their audio track is kept, the picture dropped). The client's content type is not trusted: the
 * extension gates the upload and ffprobe then checks the bytes.
 */
export const UPLOAD_EXTENSIONS = [
  'mp3',
  'flac',
  'm4a',
  'aac',
  'ogg',
  'oga',
  'opus',
  'wav',
  'wma',
  'ape',
  'mka',
  'webm',
  'mp4',
  'mkv',
] as const;
export type UploadExtension = (typeof UPLOAD_EXTENSIONS)[number];

const MAX_NAME_CHARS = 255;
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are exactly what is refused.
const CONTROL_CHARACTERS = /[\u0000-\u001f\u007f]/;

/** A lyrics file (LRC or plain text) for an earlier upload of the same name (lyrics-upload.ts). */
export const LYRICS_EXTENSION = 'lrc';

export interface UploadName<E extends string = UploadExtension> {
  /** The name shown to people: the last path segment of what the client sent. */
  originalName: string;
  extension: E;
}
/** What an upload's name says it is: audio to store, or lyrics for an earlier upload. */
export type AnyUploadName = UploadName | UploadName<typeof LYRICS_EXTENSION>;

const isUploadExtension = (value: string): value is UploadExtension =>
  (UPLOAD_EXTENSIONS as readonly string[]).includes(value);

/** Reads the `x-filename` header; every failure is a sentence for a 400. */
export function parseUploadName(header: string): Result<AnyUploadName> {
  let decoded: string;
  try {
    decoded = decodeURIComponent(header);
  } catch {
    return err('x-filename: not valid percent-encoded UTF-8');
  }
  if (CONTROL_CHARACTERS.test(decoded)) return err('x-filename: must not contain control characters');
  // A client may send a whole path (`C:\music\a.mp3`, `../../a.mp3`): only its last segment is a name.
  const originalName = (decoded.split(/[/\\]/).pop() ?? '').trim();
  if (!originalName || originalName === '.' || originalName === '..')
    return err('x-filename: the file name is empty');
  if (originalName.length > MAX_NAME_CHARS)
    return err(`x-filename: the file name must be at most ${MAX_NAME_CHARS} characters`);
  const dot = originalName.lastIndexOf('.');
  const extension = dot > 0 ? originalName.slice(dot + 1).toLowerCase() : '';
  if (extension === LYRICS_EXTENSION) return ok({ originalName, extension });
  if (!isUploadExtension(extension))
    return err(
      `x-filename: the file must end in one of .${UPLOAD_EXTENSIONS.join(', .')} (or .${LYRICS_EXTENSION}, lyrics for an upload)`,
    );
  return ok({ originalName, extension });
}

/** A fresh upload id and the file name it is stored under. */
export function storedUploadName(extension: UploadExtension): { id: string; storedName: string } {
  const id = randomUUID();
  return { id, storedName: `${id}.${extension}` };
}

/** The title an upload without tags gets: its file name without the extension. */
export const titleFromFileName = (originalName: string): string => originalName.replace(/\.[^.]+$/, '');
