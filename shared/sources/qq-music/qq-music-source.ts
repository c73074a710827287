/**
 * The `music_b` source at play time: asks `vkey.GetVkeyServer`/`CgiGetVkey` for a signed path
 * (`purl`) to the song's audio file and joins it to a CDN host (`sip`). The audio host wants the
 * site's Referer and User-Agent (and the login cookie for VIP files), so they travel with the URL.
 *
 * Shapes from public clients: jsososo/QQMusicApi (routes/song.js, `/url`: `filename` =
 * prefix + songmid + media mid + extension, `guid`, `songmid`, `songtype`, `loginflag`, `platform`;
 * answer `sip[]` and `midurlinfo[].purl`, empty when the account may not play it) and
 * L-1124/QQMusicApi (qqmusic_api/modules/song.py: file type codes M500/M800/C400/C600/F000).
 */
import { randomInt } from 'node:crypto';
import { QUALITIES, type Quality } from '../../domain/constants';
import { err, ok, type Result } from '../../result';
import { BROWSER_USER_AGENT } from '../http/browser';
import type { MusicSource, ResolvedStream, StreamRequest } from '../music-source';
import { type MusicuClient, QQ_REFERER } from './musicu-client';
import type { QqLogin } from './qq-music-login';
import { type Track, VkeyDataSchema } from './qq-music-schemas';
import { fetchTrack } from './track-info';

/** DECISIONS.md quality strings this source knows, with the file QQ Music serves for each. */
export const QQ_FILE_TYPES = {
  standard: { prefix: 'M500', ext: 'mp3' },
  higher: { prefix: 'C600', ext: 'm4a' },
  exhigh: { prefix: 'M800', ext: 'mp3' },
  lossless: { prefix: 'F000', ext: 'flac' },
} as const;
export type QqQuality = keyof typeof QQ_FILE_TYPES;

const isQqQuality = (quality: Quality): quality is QqQuality => quality in QQ_FILE_TYPES;

/** The asked quality when QQ Music serves it, else the nearest lower one it serves (`hires` → `lossless`). */
export function qqQualityFor(quality: Quality): QqQuality {
  const lowerFirst = QUALITIES.slice(0, QUALITIES.indexOf(quality) + 1).reverse();
  return lowerFirst.find(isQqQuality) ?? 'standard';
}
/** Asked for alongside the chosen file: most tracks have it even when the better one is VIP-only. */
const FALLBACK_FILE = { prefix: 'C400', ext: 'm4a' } as const;

export class QqMusicSource implements MusicSource {
  readonly platform = 'music_b' as const;

  /** `quality` serves requests that carry none of their own. */
  constructor(
    private readonly client: MusicuClient,
    private readonly quality: QqQuality = 'exhigh',
  ) {}

  async resolveStream(song: StreamRequest): Promise<Result<ResolvedStream>> {
    const login = await this.client.currentLogin();
    const found = await fetchTrack(this.client, song.id, login);
    if (!found.ok) return found;
    const track = found.value;
    if (!track) return err(`QQ Music does not know the song ${song.id}`);
    if (!track.file.media_mid) return err(`${track.name} has no audio on QQ Music`);
    const quality = song.quality ? qqQualityFor(song.quality) : this.quality;
    const url = await this.audioUrl(track, quality, login);
    if (!url.ok) return url;
    if (!url.value) return err(refusal(track, login));
    return ok({
      input: {
        kind: 'url',
        url: url.value,
        headers: {
          referer: QQ_REFERER,
          userAgent: BROWSER_USER_AGENT,
          ...(login && { cookie: login.cookie }),
        },
      },
    });
  }

  /** The first file (chosen quality, then the fallback) QQ Music hands out a path for; undefined when none. */
  private async audioUrl(
    track: Track,
    quality: QqQuality,
    login: QqLogin | undefined,
  ): Promise<Result<string | undefined>> {
    const files = [QQ_FILE_TYPES[quality], FALLBACK_FILE].map(
      (f) => `${f.prefix}${track.mid}${track.file.media_mid}.${f.ext}`,
    );
    const answer = await this.client.call(
      {
        module: 'vkey.GetVkeyServer',
        method: 'CgiGetVkey',
        param: {
          filename: files,
          guid: String(randomInt(1_000_000_000, 9_999_999_999)),
          songmid: files.map(() => track.mid),
          songtype: files.map(() => 0),
          uin: login?.uin ?? '0',
          loginflag: 1,
          platform: '20',
        },
      },
      VkeyDataSchema,
      login,
    );
    if (!answer.ok) return answer;
    const { sip, midurlinfo } = answer.value;
    const purl = files.map((name) => midurlinfo.find((i) => i.filename === name)?.purl).find(Boolean);
    const host = sip[0];
    if (purl && !host) return err('QQ Music gave an audio path but no host to fetch it from');
    return ok(purl && `${host}${purl}`);
  }
}

function refusal(track: Track, login: QqLogin | undefined): string {
  if (track.pay.pay_play === 1)
    return login
      ? `${track.name} needs a QQ Music VIP account; the stored login cannot play it`
      : `${track.name} needs a QQ Music VIP login`;
  return `QQ Music gave no audio for ${track.name} (region or copyright restriction)`;
}
