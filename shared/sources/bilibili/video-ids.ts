/**
 * The ids this adapter reads: a song id is a video's BV id, or `<bvid>?p=<n>` for part n of a
 * multi-part video (SPEC "Song"); a video reference from people is a BV id, an `av` number or a video
 * link (`https://www.bilibili.com/video/BV…`, `…/video/av…`, short links that carry the BV id).
 *
 * BV id form (`BV1` + 9 base58 characters) and `av` numbers from SocialSisterYi/bilibili-API-collect
 * (docs/misc/bvid_desc.md).
 */
import type { QueryParams } from './wbi';

export interface SongRef {
  bvid: string;
  /** 1-based part number; undefined for the video as a whole (its first part plays). */
  part?: number;
}

/** base58 without 0, O, I and l. */
const BVID = /BV1[1-9A-HJ-NP-Za-km-z]{9}/;
const SONG_ID = new RegExp(`^(${BVID.source})(?:\\?p=([1-9]\\d*))?$`);
const AV_NUMBER = /(?:^|[/=])av(\d+)/i;

export function parseSongId(id: string): SongRef | undefined {
  const match = SONG_ID.exec(id);
  if (!match) return undefined;
  return match[2] ? { bvid: match[1]!, part: Number(match[2]) } : { bvid: match[1]! };
}

export function partSongId(bvid: string, page: number): string {
  return `${bvid}?p=${page}`;
}

/** The `view` query naming the video a reference points at; undefined when it names none. */
export function videoQuery(reference: string): QueryParams | undefined {
  const text = reference.trim();
  const bvid = BVID.exec(text)?.[0];
  if (bvid) return { bvid };
  const aid = AV_NUMBER.exec(text)?.[1] ?? (/^\d+$/.test(text) ? text : undefined);
  return aid ? { aid } : undefined;
}
