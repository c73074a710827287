/**
 * NetEase Cloud Music's `eapi` request encryption, as its desktop client does it: the JSON payload is
 * framed with the API path and an md5 over both (`<path>-36cd479b6b5-<json>-36cd479b6b5-<md5>`), then
 * AES-128-ECB encrypted under a fixed key; the request body is the form `params=<upper-case hex>`.
 * Answers come back as plain JSON while the payload asks for none encrypted (`e_r: false`).
 *
 * Key, framing and digest from NeteaseCloudMusicApiEnhanced/api-enhanced (util/crypto.js `eapi`,
 * `eapiReqDecrypt`).
 */
import { createCipheriv, createHash } from 'node:crypto';

export const EAPI_KEY = 'e82ckenh8dichen8';
export const EAPI_SEPARATOR = '-36cd479b6b5-';

/** The `params` of an eapi form: `apiPath` is the path as the API names it (`/api/…`). */
export function eapi(apiPath: string, payload: object): string {
  const text = JSON.stringify(payload);
  const digest = createHash('md5').update(`nobody${apiPath}use${text}md5forencrypt`).digest('hex');
  const cipher = createCipheriv('aes-128-ecb', Buffer.from(EAPI_KEY), null);
  const framed = `${apiPath}${EAPI_SEPARATOR}${text}${EAPI_SEPARATOR}${digest}`;
  return Buffer.concat([cipher.update(framed, 'utf8'), cipher.final()])
    .toString('hex')
    .toUpperCase();
}
