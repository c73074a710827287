/**
 * The `stream` catalog: any audio address (internet radio, Icecast/Shoutcast, HLS, `.pls`/`.m3u`, a
 * plain file over http(s)). A song's id is its address; searching for an address answers that one
 * song, searching for anything else answers none. The address is fetched (through the request-forgery
 * guard) to check that it is audio and to name it: the station's `icy-name`, else the address.
 */
import type { Db } from '../../db/client';
import type { Song } from '../../domain/schemas';
import { err, ok, type Result } from '../../result';
import type { CatalogFailure, SongCatalog } from '../song-catalog';
import { streamAddress, titleFromAddress } from './stream-address';
import { probeStream } from './stream-probe';
import { allowsPrivateHosts } from './stream-settings';

export class StreamCatalog implements SongCatalog {
  constructor(private readonly db: Db) {}

  async search(query: string, limit: number, offset = 0): Promise<Result<Song[], CatalogFailure>> {
    if (offset > 0 || limit < 1 || streamAddress(query) === undefined) return ok([]);
    const song = await this.song(query);
    if (!song.ok) return song;
    return ok(song.value ? [song.value] : []);
  }

  async song(id: string): Promise<Result<Song | undefined, CatalogFailure>> {
    const address = streamAddress(id);
    if (address === undefined) return err({ refused: 'not an http or https address' });
    const probed = await probeStream(address, { allowPrivateHosts: await allowsPrivateHosts(this.db) });
    if (!probed.ok) {
      const { kind, message } = probed.error;
      return err(kind === 'refused' ? { refused: `${address}: ${message}` } : message);
    }
    if (!probed.value) return ok(undefined);
    return ok({
      id: address,
      name: probed.value.stationName ?? titleFromAddress(address),
      artist: '',
      album: '',
      duration: probed.value.durationSeconds,
      coverUrl: '',
      platform: 'stream',
    });
  }
}
