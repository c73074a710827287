/**
 * The music sources a process has, keyed by platform. A platform without an adapter resolves to a
 * readable error instead of failing, so a queue holding such a song simply moves on.
 */
import type { Platform } from '../domain/constants';
import { err, type Result } from '../result';
import type { MusicSource, ResolvedStream, StreamRequest } from './music-source';

export class SourceRegistry {
  private readonly sources = new Map<Platform, MusicSource>();

  constructor(sources: readonly MusicSource[] = []) {
    for (const source of sources) this.sources.set(source.platform, source);
  }

  get(platform: Platform): MusicSource | undefined {
    return this.sources.get(platform);
  }

  resolveStream(song: StreamRequest): Promise<Result<ResolvedStream>> {
    const source = this.sources.get(song.platform);
    if (!source) return Promise.resolve(err(`source ${song.platform} is not available yet`));
    return source.resolveStream(song);
  }
}
