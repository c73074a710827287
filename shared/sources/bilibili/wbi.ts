/**
 * WBI signing, Bilibili's web request signature (`w_rid` + `wts` in the query of `/wbi/` routes).
 * The two daily-rotating keys are the file names of `wbi_img.img_url` / `sub_url` in the `nav`
 * answer; a fixed permutation of their concatenation, cut to 32 characters, is the mixin key; the
 * signature is the MD5 of the sorted, percent-encoded query (with `wts`, and with `!'()*` removed from
 * values) followed by that key.
 *
 * Algorithm, permutation table and worked example from SocialSisterYi/bilibili-API-collect
 * (docs/misc/sign/wbi.md).
 */
import { createHash } from 'node:crypto';

/** The order in which the 64 characters of img_key + sub_key are picked; only the first 32 are used. */
const MIXIN_KEY_ORDER = [
  46, 47, 18, 2, 53, 8, 23, 32, 15, 50, 10, 31, 58, 3, 45, 35, 27, 43, 5, 49, 33, 9, 42, 19, 29, 28, 14, 39,
  12, 38, 41, 13, 37, 48, 7, 16, 24, 55, 40, 61, 26, 17, 0, 1, 60, 51, 30, 4, 22, 25, 54, 21, 56, 59, 6, 63,
  57, 62, 11, 36, 20, 34, 44, 52,
] as const;
const MIXIN_KEY_LENGTH = 32;
/** Characters Bilibili's own signer drops from values before hashing. */
const UNSIGNED_CHARACTERS = /[!'()*]/g;

export type QueryParams = Record<string, string | number>;

/** A key is the file name, without extension, of a `wbi_img` URL (`…/bfs/wbi/<key>.png`). */
export function keyFromUrl(url: string): string {
  const file = url.slice(url.lastIndexOf('/') + 1);
  const dot = file.indexOf('.');
  return dot < 0 ? file : file.slice(0, dot);
}

export function mixinKey(imgKey: string, subKey: string): string {
  const raw = imgKey + subKey;
  return MIXIN_KEY_ORDER.map((at) => raw[at] ?? '')
    .join('')
    .slice(0, MIXIN_KEY_LENGTH);
}

/**
 * The signed query string for `params` at `wts` (Unix seconds). `encodeURIComponent` gives the
 * upper-case escapes and `%20` for spaces the signer expects.
 */
export function signQuery(params: QueryParams, key: string, wts: number): string {
  const query = Object.entries({ ...params, wts })
    .map(([name, value]) => [name, String(value).replace(UNSIGNED_CHARACTERS, '')] as const)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`)
    .join('&');
  const wRid = createHash('md5')
    .update(query + key)
    .digest('hex');
  return `${query}&w_rid=${wRid}`;
}
