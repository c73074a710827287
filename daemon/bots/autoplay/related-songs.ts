/**
 * Where autoplay finds songs like one that played, for every bot of the daemon: the song's own
 * platform where its facts say it has related songs (similar songs, a radio, a mix) and it is enabled,
 * else the uploads, which any bot can fall back on while they are enabled and kept (`keepUploads`):
 * a played upload is deleted otherwise, so autoplay would use up uploads nobody asked to hear.
 */
import { platformFacts, UPLOADS_PLATFORM } from '../../../shared/domain/platforms';
import type { Song } from '../../../shared/domain/schemas';
import { err, type Result } from '../../../shared/result';
import type { StoredSettings } from '../../../shared/settings/settings';
import { isPlatformEnabled } from '../../../shared/sources/platform-choice';
import type { Catalogs } from '../../../shared/sources/platform-modules';

export class RelatedSongs {
  constructor(
    private readonly catalogs: Catalogs,
    private readonly settings: () => Pick<
      StoredSettings,
      'enabledProviders' | 'localAudioEnabled' | 'keepUploads'
    >,
  ) {}

  /** Up to `limit` songs like `seed`, best first; an error when no enabled platform can give any. */
  async like(seed: Song, limit: number): Promise<Result<Song[]>> {
    const settings = this.settings();
    const platform = [seed.platform, UPLOADS_PLATFORM].find(
      (p) =>
        p !== undefined &&
        platformFacts(p).relatedSongs &&
        isPlatformEnabled(settings, p) &&
        (p !== UPLOADS_PLATFORM || settings.keepUploads),
    );
    const related = platform && this.catalogs.get(platform)?.relatedSongs;
    if (!platform || !related) return err('no enabled source has songs like it');
    return related.call(this.catalogs.get(platform), seed, limit);
  }
}
