/**
 * The `stream` catalog: any audio address (internet radio, Icecast/Shoutcast, HLS, `.pls`/`.m3u`, a
 * plain file over http(s)). A song's id is its address; searching for an address answers that one
 * song, searching for anything else answers none. The address is fetched (through the request-forgery
 * guard) to check that it is audio and to name it: the station's `icy-name`; for a plain file its own
 * title, artist and length (file-tags.ts); else the address, length 0.
 */
import type { Db } from '../../db/client';
import type { Song } from '../../domain/schemas';
import { type FfmpegLocation, locateFfprobe } from '../../media/ffmpeg-locator';
import { err, ok, type Result } from '../../result';
import type { CatalogFailure, SongCatalog } from '../song-catalog';
import { type FileTags, readFileTags } from './file-tags';
import { streamAddress, titleFromAddress } from './stream-address';
import { type ProbedStream, probeStream } from './stream-probe';
import { allowsPrivateHosts } from './stream-settings';

export class StreamCatalog implements SongCatalog {
  /** ffprobe's path, looked up on the first plain file; null when there is none (no tags read). */
  private ffprobe: string | null | undefined;

  /** `ffmpeg`: where ffprobe is looked for; without it a file's tags are not read. */
  constructor(
    private readonly db: Db,
    private readonly ffmpeg?: FfmpegLocation,
  ) {}

  async search(query: string, limit: number, offset = 0): Promise<Result<Song[], CatalogFailure>> {
    if (offset > 0 || limit < 1 || streamAddress(query) === undefined) return ok([]);
    const song = await this.song(query);
    if (!song.ok) return song;
    return ok(song.value ? [song.value] : []);
  }

  async song(id: string): Promise<Result<Song | undefined, CatalogFailure>> {
    const address = streamAddress(id);
    if (address === undefined) return err({ refused: 'not an http or https address' });
    const allowPrivateHosts = await allowsPrivateHosts(this.db);
    const probed = await probeStream(address, { allowPrivateHosts });
    if (!probed.ok) {
      const { kind, message } = probed.error;
      return err(kind === 'refused' ? { refused: `${address}: ${message}` } : message);
    }
    if (!probed.value) return ok(undefined);
    const tags = await this.fileTags(probed.value, allowPrivateHosts);
    return ok({
      id: address,
      name: probed.value.stationName ?? tags?.title ?? titleFromAddress(address),
      artist: tags?.artist ?? '',
      album: '',
      duration: tags?.durationSeconds || probed.value.durationSeconds,
      coverUrl: '',
      platform: 'stream',
    });
  }

  /** A plain file's own tags; a live stream or HLS has none to read. */
  private async fileTags(probed: ProbedStream, allowPrivateHosts: boolean): Promise<FileTags | undefined> {
    if (probed.live || probed.hls) return undefined;
    const ffprobe = this.findFfprobe();
    return ffprobe ? readFileTags(probed.url, { allowPrivateHosts, ffprobe }) : undefined;
  }

  private findFfprobe(): string | null {
    if (this.ffprobe === undefined) {
      const found = this.ffmpeg ? locateFfprobe(this.ffmpeg) : undefined;
      this.ffprobe = found?.ok ? found.value : null;
    }
    return this.ffprobe;
  }
}
