/**
 * Local audio upload (SPEC.md "Music data", Local upload) and the covers of uploaded songs.
 *
 * Guests are refused even with `addToQueue`: an upload writes up to 500 MB to the server's disk and can
 * push older uploads out under the quota, which an anonymous visitor should not do. Guests still
 * queue songs that were uploaded (`add-song` with a `local` song).
 */
import { z } from '@hono/zod-openapi';
import { AlbumSchema, SongSchema } from '../../shared/domain/schemas';
import { LYRICS_FILE_MAX_BYTES } from '../../shared/sources/local/lyrics-upload';
import { LYRICS_EXTENSION, UPLOAD_EXTENSIONS } from '../../shared/sources/local/upload-name';
import { ErrorSchema, errors, jsonResponse } from '../errors';
import { defineRoute } from '../policy';

const tags = ['Music'];
const binary = { schema: z.string().openapi({ format: 'binary' }) };
const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: ErrorSchema } },
});

export const uploadLocalAudio = defineRoute({
  method: 'post',
  path: '/api/music/local/upload',
  tags,
  summary: 'Upload an audio file (or a video, whose audio is kept)',
  description: [
    'The body is the raw file (not multipart), at most 500 MB; it is streamed to disk, never held in memory.',
    `The name in \`x-filename\` (percent-encoded UTF-8 allowed) must end in one of .${UPLOAD_EXTENSIONS.join(', .')};`,
    'only its last path segment is kept, and the file is stored under a random id.',
    'ffprobe then checks that the bytes really hold audio (400 otherwise); a video keeps its audio track only.',
    'Title, artist and album come from the tags (the title falls back to the file name); an embedded cover',
    'becomes the song’s `coverUrl`. Past the disk quota (`UPLOAD_QUOTA_MB`) the oldest uploads no bot has',
    'queued are deleted, never this one. 403 while `localAudioEnabled` is off (before anything else is',
    'checked). Guests are refused.',
    '\n\n**Lyrics.** The lyrics embedded in the tags (ID3 USLT and SYLT, Vorbis/FLAC `LYRICS` or',
    '`UNSYNCEDLYRICS`, MP4 `©lyr`) are kept and answered by `GET /api/music/lyrics/{id}?platform=local`.',
    `A \`.${LYRICS_EXTENSION}\` file (LRC or plain text, UTF-8, UTF-16 with a byte order mark or GB 18030, at most`,
    `${LYRICS_FILE_MAX_BYTES / 1024} KB, sent as text/* or application/octet-stream) is not stored as a song: it`,
    'becomes the lyrics of the most recent upload whose file name without its extension is the same',
    '(case-free; `Song.lrc` is for `song.mp3`), replacing any it had, and the answer is that upload’s song.',
    'With no such upload it is a 404: upload the song first.',
  ].join(' '),
  policy: { access: 'authenticated', capability: 'player.queue' },
  request: {
    headers: z.object({
      'x-filename': z
        .string({ error: 'x-filename: the file name header is required' })
        .min(1, 'x-filename: the file name header is required')
        .max(2048)
        .openapi({ description: 'The file name, e.g. `song.mp3` or `%E6%AD%8C.flac`', example: 'song.mp3' }),
    }),
    body: {
      required: true,
      description: 'The file bytes',
      content: {
        'audio/*': binary,
        'video/*': binary,
        'application/octet-stream': binary,
        'text/*': binary,
      },
    },
  },
  responses: {
    200: jsonResponse(
      z.object({ song: SongSchema }).openapi('UploadedSong'),
      'The stored song (platform `local`); for a `.lrc`, the upload it was attached to',
    ),
    ...errors(400, 401, 403, 500),
    404: errorResponse('A `.lrc` file for which no upload has the same name'),
    413: errorResponse('The file is larger than 500 MB (a `.lrc`: 512 KB)'),
    415: errorResponse(
      'The content type is not audio/*, video/* or application/octet-stream (a `.lrc`: text/* or application/octet-stream)',
    ),
  },
});

export const listLocalUploads = defineRoute({
  method: 'get',
  path: '/api/music/local/uploads',
  tags,
  summary: 'Browse the uploaded songs, newest first',
  description:
    'An addition to SPEC: every upload as a Song (platform `local`), newest first, so a page can list ' +
    'them without a search word (`/api/music/search` needs one).',
  policy: { access: 'authenticated' },
  request: {
    query: z.object({
      limit: z.coerce.number().int().min(1).max(100).default(50).openapi({ description: 'Default 50' }),
      offset: z.coerce.number().int().min(0).default(0).openapi({ description: 'Default 0' }),
    }),
  },
  responses: {
    200: jsonResponse(z.object({ songs: z.array(SongSchema) }).openapi('UploadedSongs'), 'The uploads'),
    ...errors(400, 401),
  },
});

export const listUploadedAlbums = defineRoute({
  method: 'get',
  path: '/api/music/local/albums',
  tags,
  summary: "The albums the uploads' tags name, the one with the newest upload first",
  description:
    'An addition to SPEC, for the music home: each album once (its id is its name; `/api/music/album/{id}` ' +
    'with `platform=local` lists its songs, `play-album` plays them), with the embedded cover of one of ' +
    'its songs. Uploads without an album tag are in none.',
  policy: { access: 'authenticated' },
  request: {
    query: z.object({
      limit: z.coerce.number().int().min(1).max(100).default(24).openapi({ description: 'Default 24' }),
    }),
  },
  responses: {
    200: jsonResponse(z.object({ albums: z.array(AlbumSchema) }).openapi('UploadedAlbums'), 'The albums'),
    ...errors(400, 401),
  },
});

export const getUploadUsage = defineRoute({
  method: 'get',
  path: '/api/music/local/usage',
  tags,
  summary: 'How much of the upload quota is used, and what happens to a file after it plays',
  description:
    'An addition to SPEC, so the upload page can say both: the bytes the uploads take together against ' +
    'the disk quota (`UPLOAD_QUOTA_MB`), and `keepUploads` (see the settings): false, a played upload ' +
    'no queue or saved queue lists is deleted; true, it stays until the quota needs its room.',
  policy: { access: 'authenticated' },
  responses: {
    200: jsonResponse(
      z
        .object({
          usedBytes: z.number().int().min(0),
          quotaBytes: z.number().int().min(1),
          keepUploads: z.boolean(),
        })
        .openapi('UploadUsage'),
      'The quota used and the retention in force',
    ),
    ...errors(401),
  },
});

export const getLocalCover = defineRoute({
  method: 'get',
  path: '/api/music/local/cover/{id}',
  tags,
  summary: 'The cover picture embedded in an uploaded file',
  description:
    'Public, like the cover URLs of the other platforms, so pictures and the bots’ profile can load it; ' +
    'upload ids are random and unguessable.',
  policy: { access: 'public' },
  request: {
    params: z.object({
      id: z
        .string()
        .min(1)
        .max(128)
        .openapi({ param: { name: 'id', in: 'path' } }),
    }),
  },
  responses: {
    200: { description: 'The picture', content: { 'image/jpeg': binary, 'image/png': binary } },
    ...errors(404),
  },
});
