/**
 * Kugou Music's request signing, as its Android app and web login page sign: every request carries a
 * `signature`, the md5 of its query parameters wrapped in the app's salt. The Android form sorts the
 * parameters by name, joins them as `name=value` (a POST adds its JSON body after them); the web form
 * (the login host) sorts the `name=value` strings themselves. Some endpoints also want a `key`: the
 * tracker's (audio URL) key over the file hash and the device, or the parameter key over a client time.
 *
 * Salts, app id 1005, client version 20489, source app id 2919 and the device id ("mid": the md5 of a
 * device GUID read as one decimal number) from MakcRe/KuGouMusicApi (util/helper.js
 * `signatureAndroidParams`, `signatureWebParams`, `signKey`, `signParamsKey`; util/config.json;
 * util/util.js `calculateMid`).
 */
import { createHash } from 'node:crypto';

/** Kugou's Android app, the client these requests present themselves as. */
export const APP_ID = 1005;
export const CLIENT_VERSION = 20489;
/** The app the login host hands the login to. */
export const SRC_APP_ID = 2919;

const ANDROID_SALT = 'OIlwieks28dk2k092lksi2UIkp';
const WEB_SALT = 'NVPh5oo715z5DIWAeQlhMDsWXXQV4hwt';
const TRACKER_KEY_SALT = '57ae12eb6890223e355ccfcb74edf70d';

/** Query parameters as they are signed and sent. */
export type Params = Record<string, string | number>;

export const md5 = (text: string): string => createHash('md5').update(text).digest('hex');

/** The Android app's signature: parameters sorted by name, then the request body, inside the salt. */
export function androidSignature(params: Params, body = ''): string {
  const joined = Object.keys(params)
    .sort()
    .map((name) => `${name}=${params[name]}`)
    .join('');
  return md5(`${ANDROID_SALT}${joined}${body}${ANDROID_SALT}`);
}

/** The web login page's signature: the `name=value` strings sorted, inside the web salt. */
export function webSignature(params: Params): string {
  const joined = Object.entries(params)
    .map(([name, value]) => `${name}=${value}`)
    .sort()
    .join('');
  return md5(`${WEB_SALT}${joined}${WEB_SALT}`);
}

/** The `key` the tracker wants with an audio URL request: the file, the app and the device asking. */
export const trackerKey = (hash: string, mid: string, userid: string): string =>
  md5(`${hash}${TRACKER_KEY_SALT}${APP_ID}${mid}${userid}`);

/** The `key` some recommendation bodies carry: the app, its version and the body's client time. */
export const paramsKey = (clienttime: number): string =>
  md5(`${APP_ID}${ANDROID_SALT}${CLIENT_VERSION}${clienttime}`);

/** A device id (`mid`) as the app derives it from its device GUID: the GUID's md5 as a decimal number. */
export const deviceMid = (guid: string): string => BigInt(`0x${md5(guid)}`).toString();
