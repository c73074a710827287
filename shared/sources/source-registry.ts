/**
 * The music sources a process has, keyed by platform, with each platform's configured quality. A
 * platform without an adapter resolves to a readable error instead of failing, so a queue holding such
 * a song simply moves on.
 */
import type { Platform } from '../domain/constants';
import { countPlatformError } from '../metrics/platform-errors';
import { err, type Result } from '../result';
import type { QualityMap } from '../settings/quality';
import type { MusicSource, PlaybackReport, ResolvedStream, StreamRequest } from './music-source';

export class SourceRegistry {
  private readonly sources = new Map<Platform, MusicSource>();
  private quality: Partial<QualityMap> = {};

  constructor(sources: readonly MusicSource[] = []) {
    for (const source of sources) this.sources.set(source.platform, source);
  }

  get(platform: Platform): MusicSource | undefined {
    return this.sources.get(platform);
  }

  /** The stored per-platform quality (SPEC: restored at start-up); used from the next resolution on. */
  setQuality(quality: QualityMap): void {
    this.quality = quality;
  }

  async resolveStream(song: StreamRequest): Promise<Result<ResolvedStream>> {
    const source = this.sources.get(song.platform);
    if (!source) return err(`source ${song.platform} is not available yet`);
    const quality = song.quality ?? this.quality[song.platform];
    const resolved = await source.resolveStream(quality ? { ...song, quality } : song);
    if (!resolved.ok) countPlatformError(song.platform, resolved.error);
    return resolved;
  }

  /** Whether the song's source wants to hear about its playback (a media server's "now playing"). */
  reportsPlayback(platform: Platform): boolean {
    return this.sources.get(platform)?.reportPlayback !== undefined;
  }

  reportPlayback(platform: Platform, report: PlaybackReport): Promise<void> {
    return this.sources.get(platform)?.reportPlayback?.(report) ?? Promise.resolve();
  }
}
