/**
 * POST /api/music/local/upload, GET /api/music/local/uploads, /albums, /usage and
 * /cover/{id}: the HTTP side of local uploads.
 * The file handling itself (streaming to disk, probing, keeping a video's audio, measuring its loudness,
 * retention) lives in shared/sources/local/.
 */
import { OpenAPIHono } from '@hono/zod-openapi';
import { eq } from 'drizzle-orm';
import {
  getLocalCover,
  getUploadUsage,
  listLocalUploads,
  listUploadedAlbums,
  uploadLocalAudio,
} from '../../openapi/routes/uploads';
import { uploads } from '../../shared/db/schema';
import { say } from '../../shared/i18n/phrases';
import { type FfmpegLocation, locateFfmpeg, locateFfprobe } from '../../shared/media/ffmpeg-locator';
import { readSettings } from '../../shared/settings/settings';
import { LocalCatalog, uploadToSong } from '../../shared/sources/local/local-catalog';
import { attachLyricsFile, LYRICS_FILE_MAX_BYTES } from '../../shared/sources/local/lyrics-upload';
import { type MediaTools, takeInUpload, UPLOAD_MAX_BYTES } from '../../shared/sources/local/upload-intake';
import { UploadLoudnessMeter } from '../../shared/sources/local/upload-loudness';
import { LYRICS_EXTENSION, parseUploadName } from '../../shared/sources/local/upload-name';
import {
  evictOverQuota,
  type ReferencedUploadIds,
  uploadsInStoredQueues,
  usedUploadBytes,
} from '../../shared/sources/local/upload-retention';
import { principalOf } from '../access/principal';
import type { AppDeps, AppEnv } from '../env';
import { ApiError, validationHook } from '../errors';

export interface UploadRouteOptions {
  /** The size limit; SPEC's 500 MB unless a test sets a smaller one. */
  maxBytes?: number;
  /** Which uploads some bot's queue holds (kept under quota pressure); default: the stored queues. */
  referencedUploadIds?: ReferencedUploadIds;
}

/** What each kind of upload may be sent as, and how large it may be. */
const AUDIO_FILE = {
  // SPEC: `audio/*` or `video/*`, also sent as a generic binary type.
  types: /^(audio\/[\w.+-]+|video\/[\w.+-]+|application\/octet-stream)$/,
  typeRefused: say.uploadTypeRefused(),
  tooLarge: say.uploadTooLarge(UPLOAD_MAX_BYTES / 1024 / 1024),
};
const LYRICS_FILE = {
  // A `.lrc` is text; a browser that knows no type for it sends the generic binary one.
  types: /^(text\/[\w.+-]+|application\/octet-stream)$/,
  typeRefused: say.lyricsTypeRefused(),
  tooLarge: say.lyricsTooLarge(LYRICS_FILE_MAX_BYTES / 1024),
  maxBytes: LYRICS_FILE_MAX_BYTES,
};

/** ffmpeg and ffprobe, found on the first upload so an api without uploads never needs them. */
function mediaToolsFinder(location: FfmpegLocation): () => MediaTools {
  let tools: MediaTools | undefined;
  return () => {
    if (tools) return tools;
    const ffmpeg = locateFfmpeg(location);
    if (!ffmpeg.ok) throw new ApiError(500, ffmpeg.error);
    const ffprobe = locateFfprobe(location);
    if (!ffprobe.ok) throw new ApiError(500, ffprobe.error);
    tools = { ffmpeg: ffmpeg.value, ffprobe: ffprobe.value };
    return tools;
  };
}

export function uploadRoutes({ db, config }: AppDeps, options: UploadRouteOptions = {}) {
  const maxBytes = options.maxBytes ?? UPLOAD_MAX_BYTES;
  const referencedUploadIds = options.referencedUploadIds ?? (() => uploadsInStoredQueues(db));
  const mediaTools = mediaToolsFinder(config.ffmpeg);
  const loudnessMeter = new UploadLoudnessMeter(db, config.dataDir);

  const app = new OpenAPIHono<AppEnv>({ defaultHook: validationHook });
  // SPEC: 403 while local audio is off, before the request itself is judged (a missing x-filename).
  app.on('POST', uploadLocalAudio.path, async (_c, next) => {
    if (!(await readSettings(db)).localAudioEnabled) throw new ApiError(403, say.localAudioDisabled());
    await next();
  });

  return app
    .openapi(uploadLocalAudio, async (c) => {
      const name = parseUploadName(c.req.valid('header')['x-filename']);
      if (!name.ok) throw new ApiError(400, name.error);
      const kind = name.value.extension === LYRICS_EXTENSION ? LYRICS_FILE : { ...AUDIO_FILE, maxBytes };
      const contentType = (c.req.header('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
      if (!kind.types.test(contentType)) throw new ApiError(415, kind.typeRefused);
      // Refuse at once what announces itself too large, before a byte of it is read.
      if (Number(c.req.header('content-length') ?? 0) > kind.maxBytes) throw new ApiError(413, kind.tooLarge);
      const body = c.req.raw.body;
      if (!body) throw new ApiError(400, say.uploadNoBody());

      if (name.value.extension === LYRICS_EXTENSION) {
        const attached = await attachLyricsFile(db, { body, originalName: name.value.originalName });
        if (attached.ok) return c.json({ song: uploadToSong(attached.value) }, 200);
        const failure = attached.error;
        if (failure.kind === 'tooLarge') throw new ApiError(413, LYRICS_FILE.tooLarge);
        throw new ApiError(failure.kind === 'noUpload' ? 404 : 400, failure.message);
      }

      const tools = mediaTools();
      const taken = await takeInUpload(db, config.dataDir, tools, {
        body,
        name: name.value,
        uploadedBy: principalOf(c).userId,
        maxBytes,
      });
      if (!taken.ok) {
        const failure = taken.error;
        if (failure.kind === 'tooLarge') throw new ApiError(413, AUDIO_FILE.tooLarge);
        throw failure.kind === 'refused'
          ? new ApiError(400, failure.phrase)
          : new ApiError(500, failure.message);
      }
      const upload = taken.value;
      await evictOverQuota(db, config.dataDir, {
        quotaBytes: config.uploadQuotaBytes,
        keepId: upload.id,
        referenced: await referencedUploadIds(),
      });
      // Measured after the answer: a long file takes a while (upload-loudness.ts).
      if (!upload.loudnessSource) loudnessMeter.measureLater(tools.ffmpeg, upload);
      return c.json({ song: uploadToSong(upload) }, 200);
    })

    .openapi(listLocalUploads, async (c) => {
      const { limit, offset } = c.req.valid('query');
      // An empty search word matches every upload (LocalCatalog.search), newest first.
      const songs = await new LocalCatalog(db).search('', limit, offset);
      if (!songs.ok) throw new ApiError(500, songs.error);
      return c.json({ songs: songs.value }, 200);
    })
    .openapi(listUploadedAlbums, async (c) => {
      const albums = await new LocalCatalog(db).uploadedAlbums(c.req.valid('query').limit);
      if (!albums.ok) throw new ApiError(500, albums.error);
      return c.json({ albums: albums.value }, 200);
    })
    .openapi(getUploadUsage, async (c) =>
      c.json(
        {
          usedBytes: await usedUploadBytes(db),
          quotaBytes: config.uploadQuotaBytes,
          keepUploads: (await readSettings(db)).keepUploads,
        },
        200,
      ),
    )
    .openapi(getLocalCover, async (c) => {
      const [cover] = await db
        .select({ type: uploads.coverType, data: uploads.coverData })
        .from(uploads)
        .where(eq(uploads.id, c.req.valid('param').id))
        .limit(1);
      if (!cover?.type || !cover.data) throw new ApiError(404, 'this upload has no cover');
      // An upload's cover never changes: its id names one file for good.
      return c.body(new Uint8Array(cover.data), 200, {
        'content-type': cover.type,
        'cache-control': 'public, max-age=86400, immutable',
      });
    });
}
