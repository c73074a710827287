/**
 * The `music_a` source at play time: asks `/xeapi/song/enhance/player/url/v1` (the Android app's
 * guarded form, netease-transport.ts) for the song's audio URL at the level of the request's quality
 * (the platform's configured one), else the source's default. The audio CDN wants the site's Referer
 * and a browser User-Agent (and the login cookie), so they travel with the URL. A VIP song without a
 * URL is a clear refusal; a URL with `freeTrialInfo` is only the trial clip, reported as a preview of
 * that length.
 *
 * Payload (`ids` as a JSON array text, `level`, `encodeType`), form and answer (`data[].url`, `fee`,
 * `freeTrialInfo`) from NeteaseCloudMusicApiEnhanced/api-enhanced (module/song_url_v1.js: xeapi since
 * its commit d0935f6); level names from its documentation (standard, higher, exhigh, lossless, hires,
 * jymaster).
 */
import type { Quality } from '../../domain/constants';
import { err, ok, type Result } from '../../result';
import { BROWSER_USER_AGENT } from '../http/browser';
import { refusal as refused } from '../http/refusals';
import type { MusicSource, ResolvedStream, StreamRequest } from '../music-source';
import type { NeteaseClient } from './netease-client';
import type { NeteaseLogin } from './netease-login';
import { SongUrlSchema } from './netease-schemas';
import { isVipFee, neteaseId } from './netease-tracks';
import { NETEASE_REFERER, SERVICE } from './netease-transport';

/** DECISIONS.md quality strings, with the `level` NetEase names each. */
export const NETEASE_LEVELS = {
  standard: 'standard',
  higher: 'higher',
  exhigh: 'exhigh',
  lossless: 'lossless',
  hires: 'hires',
  master: 'jymaster',
} as const;
export type NeteaseQuality = keyof typeof NETEASE_LEVELS;

const isNeteaseQuality = (quality: Quality | undefined): quality is NeteaseQuality =>
  quality !== undefined && quality in NETEASE_LEVELS;

export class NeteaseSource implements MusicSource {
  readonly platform = 'music_a' as const;

  constructor(
    private readonly client: NeteaseClient,
    private readonly quality: NeteaseQuality = 'exhigh',
  ) {}

  async resolveStream(song: StreamRequest): Promise<Result<ResolvedStream>> {
    const id = neteaseId(song.id);
    if (id === undefined) return err(refused.notFound(SERVICE, 'song', song.id));
    const login = await this.client.currentLogin();
    // `direct` (an untouched original) is no NetEase level: the default serves it.
    const quality = isNeteaseQuality(song.quality) ? song.quality : this.quality;
    const answer = await this.client.call(
      '/xeapi/song/enhance/player/url/v1',
      { ids: `[${id}]`, level: NETEASE_LEVELS[quality], encodeType: 'flac' },
      SongUrlSchema,
      login,
    );
    if (!answer.ok) return answer;
    const file = answer.value.data.find((entry) => entry.id === id);
    if (!file) return err(refused.notFound(SERVICE, 'song', song.id));
    if (!file.url) return err(refusal(isVipFee(file.fee) || song.vip === true, login));
    const trial = file.freeTrialInfo;
    return ok({
      input: {
        kind: 'url',
        url: file.url,
        headers: {
          referer: NETEASE_REFERER,
          userAgent: BROWSER_USER_AGENT,
          ...(login && { cookie: login.cookie }),
        },
      },
      ...(trial && trial.end > trial.start && { previewSeconds: trial.end - trial.start }),
    });
  }
}

function refusal(vip: boolean, login: NeteaseLogin | undefined): string {
  if (vip)
    return login
      ? 'it needs a NetEase Cloud Music VIP account, and the stored login is not one; log in with a VIP account'
      : refused.paidOnly(SERVICE, 'it');
  return login
    ? 'NetEase Cloud Music gave no audio for it (copyright or region restriction); try another platform'
    : 'NetEase Cloud Music gave no audio for it without a login (copyright or region restriction); log in to NetEase Cloud Music, or try another platform';
}
