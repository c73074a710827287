/**
 * The `music_c` source at play time: looks the song up (kugou-privilege.ts) for its files at each
 * quality, picks the asked quality's file or the nearest lower one the song has, and asks Kugou's
 * tracker (`/v5/url`, through the gateway) for its audio URL. The tracker answers `status` 1 with
 * URLs; 2 when the file needs a (VIP) login and 3 when Kugou has no copyright for it: both become a
 * sentence a listener can read. A VIP song without any stored login is refused before asking.
 *
 * Quality names (`128`, `320`, `flac`, `high`) and the tracker request (`hash` lower-case, `quality`,
 * `key` over hash, app and device, `pid`, `cmd` 26, `behavior=play`, `page_id`, `ppage_id`, router
 * `trackercdn.kugou.com`, and a random 24-character `dfid` when the device has none registered) from
 * MakcRe/KuGouMusicApi (module/song_url.js, util/request.js `signKey`);
 * `level` 0 meaning "not available" and falling back quality by quality from MoeKoeMusic/MoeKoeMusic
 * (src/components/player/songQueue/OnlineMusicQueue.js).
 */
import { QUALITIES, type Quality } from '../../domain/constants';
import { err, ok, type Result } from '../../result';
import { refusal as refused } from '../http/refusals';
import type { MusicSource, ResolvedStream, StreamRequest } from '../music-source';
import { GATEWAY_ORIGIN, type KugouClient, SERVICE } from './kugou-client';
import { isLogin, type KugouDevice, type KugouLogin, randomDfid, UNREGISTERED_DFID } from './kugou-login';
import { fetchPrivilege } from './kugou-privilege';
import { type Good, type PrivilegeItem, SongUrlSchema } from './kugou-schemas';
import { trackerKey } from './kugou-signing';
import { splitName, VIP_PRIVILEGE } from './kugou-tracks';

/** DECISIONS.md quality strings this source knows, with Kugou's name for each, lowest first. */
export const KUGOU_QUALITIES = { standard: '128', exhigh: '320', lossless: 'flac', hires: 'high' } as const;
export type KugouQuality = keyof typeof KUGOU_QUALITIES;
const RANKED: readonly KugouQuality[] = ['standard', 'exhigh', 'lossless', 'hires'];

const isKugouQuality = (quality: Quality): quality is KugouQuality => quality in KUGOU_QUALITIES;

/** The asked quality when Kugou serves it, else the nearest lower one it serves (`higher` → `standard`). */
export function kugouQualityFor(quality: Quality): KugouQuality {
  const lowerFirst = QUALITIES.slice(0, QUALITIES.indexOf(quality) + 1).reverse();
  return lowerFirst.find(isKugouQuality) ?? 'standard';
}

const OK_STATUS = 1;
const NO_COPYRIGHT_STATUS = 3;
/** The app's page ids for playing from the player page, as its requests name them. */
const PAGE_ID = 151369488;
const PARENT_PAGE_IDS = '463467626,350369493,788954147';
const TRACKER_VERSION = 11430;

export class KugouSource implements MusicSource {
  readonly platform = 'music_c' as const;

  /** `quality` serves requests that carry none of their own. */
  constructor(
    private readonly client: KugouClient,
    private readonly quality: KugouQuality = 'exhigh',
  ) {}

  async resolveStream(song: StreamRequest): Promise<Result<ResolvedStream>> {
    const login = await this.client.currentLogin();
    const found = await fetchPrivilege(this.client, song.id, login);
    if (!found.ok) return found;
    const item = found.value;
    if (!item) return err(refused.notFound(SERVICE, 'song', song.id));
    const title = splitName(item.name).title;
    if (item.privilege === VIP_PRIVILEGE && !login) return err(refused.paidOnly(SERVICE, title));
    const file = fileFor(item, song.quality ? kugouQualityFor(song.quality) : this.quality);
    const sender = await this.client.sender(login);
    // The tracker wants a device fingerprint; a device Kugou never registered sends a fresh one.
    const who = sender.dfid === UNREGISTERED_DFID ? { ...sender, dfid: randomDfid() } : sender;
    const answer = await this.client.fetch(
      {
        origin: GATEWAY_ORIGIN,
        path: '/v5/url',
        router: 'trackercdn.kugou.com',
        query: trackerQuery(file, who),
      },
      who,
    );
    if (!answer.ok) return answer;
    const parsed = SongUrlSchema.safeParse(answer.value);
    if (!parsed.success) return err('Kugou Music answered /v5/url in an unexpected shape');
    const { status, url, backupUrl } = parsed.data;
    const audio = [...url, ...backupUrl].find(Boolean);
    if (status === OK_STATUS && audio) return ok({ input: { kind: 'url', url: audio } });
    if (status === NO_COPYRIGHT_STATUS)
      return err(
        `Kugou Music has no copyright to play ${title}; no login changes that, try another platform`,
      );
    return err(refusal(title, item, login));
  }
}

/** The song's file at `quality`, else at the nearest lower quality it has (at worst its own file). */
function fileFor(item: PrivilegeItem, quality: KugouQuality): { hash: string; quality: string } {
  const files = [item, ...item.relate_goods].filter((good: Good) => good.level !== 0);
  const wanted = RANKED.slice(0, RANKED.indexOf(quality) + 1).reverse();
  for (const name of wanted) {
    const file = files.find((good) => good.quality === KUGOU_QUALITIES[name]);
    if (file) return { hash: file.hash, quality: file.quality };
  }
  return { hash: item.hash, quality: KUGOU_QUALITIES.standard };
}

function trackerQuery(file: { hash: string; quality: string }, who: KugouDevice) {
  const hash = file.hash.toLowerCase();
  return {
    album_id: 0,
    area_code: 1,
    hash,
    ssa_flag: 'is_fromtrack',
    version: TRACKER_VERSION,
    page_id: PAGE_ID,
    quality: file.quality,
    album_audio_id: 0,
    behavior: 'play',
    pid: 2,
    cmd: 26,
    pidversion: 3001,
    IsFreePart: 0,
    ppage_id: PARENT_PAGE_IDS,
    cdnBackup: 1,
    module: '',
    clientver: TRACKER_VERSION,
    key: trackerKey(hash, who.mid, isLogin(who) ? who.userid : '0'),
  };
}

function refusal(title: string, item: PrivilegeItem, login: KugouLogin | undefined): string {
  if (item.privilege === VIP_PRIVILEGE)
    return `${title} needs a Kugou Music VIP account, and the stored login is not one; log in with a VIP account`;
  return login
    ? `Kugou Music gave no audio for ${title}; its login may have expired, log in again`
    : `Kugou Music gives no audio for ${title} without a login; log in to Kugou Music`;
}
