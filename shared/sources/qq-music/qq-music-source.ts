/**
 * The `music_b` source at play time: asks `music.vkey.GetVkey`/`UrlGetVkey` (as QQ Music's phone app,
 * see qq-mobile-client.ts) for a signed path (`purl`) to the song's audio file, named by the quality's
 * prefix and the track's `media_mid`, and joins it to an https CDN host (the first https one `sip`
 * names, else QQ Music's default stream host). The audio host is asked as the app (its User-Agent)
 * and never given the login cookie: the path carries its own `vkey`, which is what lets a VIP file
 * play, and qqmusic_key and the refresh tokens go only to QQ Music's API hosts. An empty path says why
 * in plain words: no login, not a VIP login, or a song QQ Music may not play here. The track's look-up
 * also carries its ReplayGain figures where QQ Music has analysed it: its loudness (qq-music-loudness.ts).
 *
 * Request and answer from L-1124/QQMusicApi (qqmusic_api/modules/song.py `get_song_urls`: `uin`,
 * `filename` = prefix + `media_mid` + extension, `guid`, `songmid`, `songtype`, `ctx`;
 * `_SONG_URL_FALLBACK_DOMAIN`; `SongFileType`: M500/C400/C600/M800/F000; models/song.py
 * `UrlinfoItem`: `purl`, `result` 104003 no permission, 104013 device restricted). Hosts from the same
 * project: it played every path from `https://isure.stream.qqmusic.qq.com/` (its `_SONG_URL_DOMAIN`,
 * 2024 to commit 5ccd97d, 2026-03), then from a `sip` entry with that host as the fallback; its tests
 * show `sip` mixing http and https hosts (`http://ws6.stream.qqmusic.qq.com/`,
 * `https://aqqmusic.tc.qq.com/`), and its download example fetches `host + purl` with no cookie.
 */
import { randomUUID } from 'node:crypto';
import { QUALITIES, type Quality } from '../../domain/constants';
import { err, ok, type Result } from '../../result';
import type { MusicSource, ResolvedStream, StreamRequest } from '../music-source';
import type { MusicuClient } from './musicu-client';
import { MOBILE_USER_AGENT } from './qq-mobile-client';
import type { QqLogin } from './qq-music-login';
import { qqMusicLoudness } from './qq-music-loudness';
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
/** Where a path is played from when the answer names no https host (the reference's fallback domain). */
const DEFAULT_STREAM_HOST = 'https://isure.stream.qqmusic.qq.com/';
/** `result` of a file QQ Music will not serve to this kind of device. */
const DEVICE_RESTRICTED = 104013;
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
    if (typeof url.value !== 'string') return err(refusal(track, login, url.value.result));
    const loudness = qqMusicLoudness(track);
    return ok({
      input: {
        kind: 'url',
        url: url.value,
        headers: { userAgent: MOBILE_USER_AGENT },
      },
      ...(loudness && { loudness }),
    });
  }

  /**
   * The first file (chosen quality, then the fallback) QQ Music hands out a path for; else the
   * chosen file's `result` code, which says why not.
   */
  private async audioUrl(
    track: Track,
    quality: QqQuality,
    login: QqLogin | undefined,
  ): Promise<Result<string | { result: number }>> {
    const files = [QQ_FILE_TYPES[quality], FALLBACK_FILE].map(
      (f) => `${f.prefix}${track.file.media_mid}.${f.ext}`,
    );
    const answer = await this.client.call(
      {
        module: 'music.vkey.GetVkey',
        method: 'UrlGetVkey',
        param: {
          uin: login?.uin ?? '',
          filename: files,
          guid: randomUUID().replaceAll('-', ''),
          songmid: files.map(() => track.mid),
          songtype: files.map(() => 0),
          ctx: 0,
        },
      },
      VkeyDataSchema,
      login,
    );
    if (!answer.ok) return answer;
    const { sip, midurlinfo } = answer.value;
    const infos = files.map((name) => midurlinfo.find((i) => i.filename === name));
    const purl = infos.map((info) => info?.purl).find(Boolean);
    if (!purl) return ok({ result: infos[0]?.result ?? 0 });
    // An http host would carry the signed path (and anything else) in clear: only https ones are used.
    const host = sip.find((candidate) => candidate.startsWith('https://')) ?? DEFAULT_STREAM_HOST;
    return ok(`${host}${purl}`);
  }
}

/** Why QQ Music gave no path, in words an admin can act on. */
function refusal(track: Track, login: QqLogin | undefined, result: number): string {
  if (track.pay.pay_play === 1)
    return login
      ? `${track.name} needs a QQ Music VIP account, and the stored login is not one (or its VIP has lapsed); log in with a VIP account`
      : `${track.name} is a VIP song on QQ Music; log in with a QQ Music VIP account to play it`;
  if (result === DEVICE_RESTRICTED)
    return `QQ Music does not let ${track.name} play on this kind of device; try another platform`;
  return login
    ? `QQ Music does not let this account play ${track.name} (copyright or region restriction); try another platform`
    : `QQ Music gave no audio for ${track.name} without a login; log in to QQ Music (a VIP account plays the most)`;
}
