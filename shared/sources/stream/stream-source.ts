/**
 * The `stream` source: at play time the address is probed again (a playlist's first entry may have
 * moved, the station may be gone) and handed to the daemon as a user's address, so the relay fetches
 * it through the request-forgery guard, strips and reports ICY titles, and reopens a live stream that
 * drops.
 */
import type { Db } from '../../db/client';
import { err, ok, type Result } from '../../result';
import type { MusicSource, ResolvedStream, StreamRequest } from '../music-source';
import { streamAddress } from './stream-address';
import { probeStream, STREAM_USER_AGENT } from './stream-probe';
import { allowsPrivateHosts } from './stream-settings';

export class StreamSource implements MusicSource {
  readonly platform = 'stream' as const;

  constructor(private readonly db: Db) {}

  async resolveStream(song: StreamRequest): Promise<Result<ResolvedStream>> {
    const address = streamAddress(song.id);
    if (address === undefined) return err('not an http or https address');
    const allowPrivateHosts = await allowsPrivateHosts(this.db);
    const probed = await probeStream(address, { allowPrivateHosts });
    if (!probed.ok) return err(probed.error.message);
    if (!probed.value) return err(`nothing is at ${address} any more`);
    const { url, live, hls } = probed.value;
    return ok({
      input: {
        kind: 'url',
        url,
        headers: { userAgent: STREAM_USER_AGENT },
        userAddress: { allowPrivateHosts, live, hls },
      },
    });
  }
}
