/**
 * The file name of an upload, as the client sends it in the `x-filename` header (percent-encoded
 * UTF-8 allowed, since header values are bytes). The name is only ever shown to people: what lands on
 * disk is a random id plus a whitelisted extension (`storedUploadName`), so nothing in the name can
 * reach the file system.
 */
import { randomUUID } from 'node:crypto';
import { type Phrase, say } from '../../i18n/phrases';
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

/**
 * Reads the `x-filename` header; every failure is the phrase of a 400. A name off the list is what a
 * person meets (a browser sends a clean name), so it has a phrase of its own in every language; the
 * others only a hand-made request can send.
 */
export function parseUploadName(header: string): Result<AnyUploadName, Phrase> {
  const refused = (sentence: string) => err(say.uploadBadName(`x-filename: ${sentence}`));
  let decoded: string;
  try {
    decoded = decodeURIComponent(header);
  } catch {
    return refused('not valid percent-encoded UTF-8');
  }
  if (CONTROL_CHARACTERS.test(decoded)) return refused('must not contain control characters');
  // A client may send a whole path (`C:\music\a.mp3`, `../../a.mp3`): only its last segment is a name.
  const originalName = (decoded.split(/[/\\]/).pop() ?? '').trim();
  if (!originalName || originalName === '.' || originalName === '..')
    return refused('the file name is empty');
  if (originalName.length > MAX_NAME_CHARS)
    return refused(`the file name must be at most ${MAX_NAME_CHARS} characters`);
  const dot = originalName.lastIndexOf('.');
  const extension = dot > 0 ? originalName.slice(dot + 1).toLowerCase() : '';
  if (extension === LYRICS_EXTENSION) return ok({ originalName, extension });
  if (!isUploadExtension(extension)) return err(say.uploadWrongExtension(UPLOAD_EXTENSIONS));
  return ok({ originalName, extension });
}

/** A fresh upload id and the file name it is stored under. */
export function storedUploadName(extension: UploadExtension): { id: string; storedName: string } {
  const id = randomUUID();
  return { id, storedName: `${id}.${extension}` };
}

/** The title an upload without tags gets: its file name without the extension. */
export const titleFromFileName = (originalName: string): string => originalName.replace(/\.[^.]+$/, '');
