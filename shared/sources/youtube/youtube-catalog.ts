/**
 * The `video_b` catalog (YouTube) through the `yt-dlp` executable: search (`ytsearchN:<query>` with
 * `--flat-playlist`, one answer listing the first N videos), one video by id or link, a playlist's
 * videos, and the videos like one (its mix, for autoplay). Whether yt-dlp runs stands in for the
 * login status (yt-dlp-status.ts).
 *
 * Command lines and answers from yt-dlp/yt-dlp README.md ("USAGE AND OPTIONS": `--dump-single-json`,
 * `--flat-playlist`, `--no-playlist`, `--playlist-end`; "OUTPUT TEMPLATE" for the fields) and
 * yt_dlp/extractor/youtube/_search.py (the `ytsearch` prefix with its result count), checked again at
 * commit 81ecd58 (2026-08-20); a mix from yt_dlp/extractor/youtube/_tab.py (`_extract_from_playlist`,
 * `_extract_inline_playlist`: a watch link with `list=RD<id>` answers a playlist of flat entries from
 * the watch page's playlist panel, fetched on page by page). Warnings stay on: they go to stderr,
 * where yt-dlp says it found no JavaScript runtime (yt-dlp-errors.ts).
 */
import type { Song } from '../../domain/schemas';
import { err, ok, type Result } from '../../result';
import type { AccountStatus, SongCatalog, SongList } from '../song-catalog';
import { mixUrl, playlistUrl, watchUrl, youtubePlaylistId, youtubeVideoId } from './youtube-ids';
import { FlatPlaylistSchema, VideoSummarySchema } from './youtube-schemas';
import { isPlayableEntry, videoToSong } from './youtube-songs';
import type { YtDlp, YtDlpFailure } from './yt-dlp';
import { ytDlpAccountStatus } from './yt-dlp-status';

/** The deepest a search pages: each page asks yt-dlp for every result up to its end. */
export const SEARCH_DEPTH = 100;
/** The most videos one playlist loads: the same cap as a loaded queue. */
export const PLAYLIST_LIMIT = 1000;

export class YoutubeCatalog implements SongCatalog {
  constructor(private readonly ytDlp: YtDlp) {}

  async search(query: string, limit: number, offset = 0): Promise<Result<Song[]>> {
    const text = query.trim();
    const depth = Math.min(offset + limit, SEARCH_DEPTH);
    if (text === '' || depth <= offset) return ok([]);
    // The `ytsearchN:` prefix makes the query one argument yt-dlp can only read as a search.
    const answer = await this.ytDlp.json(
      ['--dump-single-json', '--flat-playlist', '--', `ytsearch${depth}:${text}`],
      FlatPlaylistSchema,
    );
    if (!answer.ok) return err(answer.error.message);
    return ok(answer.value.entries.filter(isPlayableEntry).slice(offset, depth).map(videoToSong));
  }

  async song(id: string): Promise<Result<Song | undefined>> {
    const videoId = youtubeVideoId(id);
    if (videoId === undefined) return ok(undefined);
    const answer = await this.ytDlp.json(
      ['--dump-single-json', '--no-playlist', '--', watchUrl(videoId)],
      VideoSummarySchema,
    );
    return answer.ok ? ok(videoToSong(answer.value)) : unlessNotFound(answer.error);
  }

  /** The playlist's videos in order; private and deleted ones are dropped (`totalCount` says so). */
  async playlist(id: string): Promise<Result<SongList | undefined>> {
    const listId = youtubePlaylistId(id);
    if (listId === undefined) return ok(undefined);
    const answer = await this.ytDlp.json(
      [
        ...['--flat-playlist', '--dump-single-json'],
        ...['--playlist-end', String(PLAYLIST_LIMIT), '--', playlistUrl(listId)],
      ],
      FlatPlaylistSchema,
    );
    if (!answer.ok) return unlessNotFound(answer.error);
    const { entries } = answer.value;
    const songs = entries.filter(isPlayableEntry).map(videoToSong);
    return ok(songs.length < entries.length ? { songs, totalCount: entries.length } : { songs });
  }

  /**
   * Songs like `song`: its mix, listed flat like a playlist. A mix opens with its seed and never ends
   * (YouTube keeps extending it), so `--playlist-end` bounds it at one more than asked for.
   */
  async relatedSongs(song: Song, limit: number): Promise<Result<Song[]>> {
    const videoId = youtubeVideoId(song.id);
    if (videoId === undefined || limit <= 0) return ok([]);
    const answer = await this.ytDlp.json(
      [
        ...['--flat-playlist', '--dump-single-json'],
        ...['--playlist-end', String(limit + 1), '--', mixUrl(videoId)],
      ],
      FlatPlaylistSchema,
    );
    if (!answer.ok) return err(answer.error.message);
    const others = answer.value.entries.filter((entry) => isPlayableEntry(entry) && entry.id !== videoId);
    return ok(others.slice(0, limit).map(videoToSong));
  }

  async accountStatus(): Promise<Result<AccountStatus>> {
    return ok(await ytDlpAccountStatus(this.ytDlp));
  }
}

/** "No such video or playlist" is an answer (undefined); every other failure is an error. */
function unlessNotFound(failure: YtDlpFailure): Result<undefined> {
  return failure.notFound ? ok(undefined) : err(failure.message);
}
