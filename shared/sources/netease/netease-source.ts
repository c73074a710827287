/**
 * The `music_a` source at play time: asks `/xeapi/song/enhance/player/url/v1` (the Android app's
 * guarded form, netease-transport.ts) for the song's audio URL at the level of the request's quality
 * (the platform's configured one), else the source's default. The audio CDN wants the site's Referer
 * and a browser User-Agent, so they travel with the URL; the login cookie does not: the URL the API
 * hands out is signed for the login already, and MUSIC_U goes only to NetEase's API hosts. A VIP song
 * without a URL is a clear refusal; a URL with `freeTrialInfo` is only the trial clip, reported as a
 * preview of that length. The file's `gain`/`peak`, where NetEase has analysed it, is its loudness
 * (netease-loudness.ts), so the bot need not measure it.
 *
 * The answer names `http://m701.music.126.net/…`-style hosts; they serve the same path over https,
 * which is how qier222/YesPlayMusic plays them (src/utils/Player.js `_getAudioSourceFromNetease`
 * rewrites the answer's `http:` to `https:` and plays it in a browser, with no NetEase cookie).
 *
 * Payload (`ids` as a JSON array text, `level`, `encodeType`), form and answer (`data[].url`, `fee`,
 * `freeTrialInfo`, `gain`, `peak`) from NeteaseCloudMusicApiEnhanced/api-enhanced (module/song_url_v1.js: xeapi since
 * its commit d0935f6); level names from its documentation (standard, higher, exhigh, lossless, hires,
 * jymaster).
 */
import type { Quality } from '../../domain/constants';
import { err, ok, type Result } from '../../result';
import { BROWSER_USER_AGENT } from '../http/browser';
import { refusal as refused } from '../http/refusals';
import type { MusicSource, ResolvedStream, StreamRequest } from '../music-source';
import type { NeteaseClient } from './netease-client';
import type { NeteaseLogin } from './netease-login-shape';
import { neteaseLoudness } from './netease-loudness';
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
    const loudness = neteaseLoudness(file);
    return ok({
      input: {
        kind: 'url',
        url: overHttps(file.url),
        headers: { referer: NETEASE_REFERER, userAgent: BROWSER_USER_AGENT },
      },
      ...(trial && trial.end > trial.start && { previewSeconds: trial.end - trial.start }),
      ...(loudness && { loudness }),
    });
  }
}

/** NetEase's audio hosts (`m701.music.126.net`, `m801.music.126.net`…) serve the same URL over https. */
const NETEASE_AUDIO_HOST = /^http:\/\/([\w-]+\.)*music\.126\.net\//i;

/** The audio URL over https when it names a NetEase audio host over http; else as it is. */
function overHttps(url: string): string {
  return NETEASE_AUDIO_HOST.test(url) ? `https://${url.slice('http://'.length)}` : url;
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
