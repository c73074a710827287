/**
 * The cookies every NetEase Cloud Music call carries, logged in or not, as its own clients send them:
 * the device's id (`deviceId`) and client marks (`os`, `osver`, `appver`, `channel`, `WNMCID`,
 * `WEVNSM`), a fresh visitor id per call (`_ntes_nuid`, `_ntes_nnid`), a fresh `NMTID` on calls that are
 * not logins, and without a login (`MUSIC_U`) the device's anonymous token (`MUSIC_A`). Without them
 * NetEase takes a call for a bot and answers some networks code -460. A stored login cookie's own
 * values win over the defaults. The web form sends all of it; the desktop form a header cookie of its
 * own; the app form all of it plus `x-*` headers naming the device.
 *
 * Names, defaults and forms from NeteaseCloudMusicApiEnhanced/api-enhanced (util/request.js
 * `processCookieObject`, the `pc` entry of `osMap`, `WNMCID`, `createHeaderCookie`, the eapi `header`
 * and the xeapi headers; util/index.js `cookieObjToString`).
 */
import { randomBytes, randomInt } from 'node:crypto';
import { cookieValues } from '../http/cookies';
import type { NeteaseLogin } from './netease-login-shape';

/** The device calls come from: its id, and the anonymous token NetEase registered for it (if any). */
export interface AnonymousDevice {
  deviceId: string;
  musicA?: string;
}

const PC = {
  os: 'pc',
  appver: '3.1.17.204416',
  osver: 'Microsoft-Windows-10-Professional-build-19045-64bit',
  channel: 'netease',
};
const APP = { os: 'android', appver: '9.1.65', osver: '16' };
/** One per process, as the reference makes one per start: six letters, the time, `.01.0`. */
const WNMCID = `${Array.from({ length: 6 }, () => String.fromCharCode(97 + randomInt(26))).join('')}.${Date.now()}.01.0`;

const seconds = () => String(Math.floor(Date.now() / 1000));
const encodePairs = (values: Record<string, string>) =>
  Object.entries(values)
    .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(value)}`)
    .join('; ');

/** The stored login's cookie values with the device's added. */
function deviceCookies(
  login: NeteaseLogin | undefined,
  device: AnonymousDevice,
  apiPath: string,
): Record<string, string> {
  const own = Object.fromEntries(login ? cookieValues(login.cookie) : []);
  const visitor = randomBytes(32).toString('hex');
  const values: Record<string, string> = {
    ...own,
    __remember_me: 'true',
    ntes_kaola_ad: '1',
    _ntes_nuid: own._ntes_nuid ?? visitor,
    _ntes_nnid: own._ntes_nnid ?? `${visitor},${Date.now()}`,
    WNMCID: own.WNMCID ?? WNMCID,
    WEVNSM: own.WEVNSM ?? '1.0.0',
    osver: own.osver ?? PC.osver,
    deviceId: own.deviceId ?? device.deviceId,
    os: own.os ?? PC.os,
    channel: own.channel ?? PC.channel,
    appver: own.appver ?? PC.appver,
  };
  if (!apiPath.includes('login')) values.NMTID = randomBytes(16).toString('hex');
  const anonymous = own.MUSIC_A ?? device.musicA;
  if (!values.MUSIC_U && anonymous) values.MUSIC_A = anonymous;
  return values;
}

/** The web player's Cookie header. */
export const webCookie = (login: NeteaseLogin | undefined, device: AnonymousDevice, path: string): string =>
  encodePairs(deviceCookies(login, device, path));

/** The desktop client's `header`: it goes inside the encrypted payload and, as a cookie, beside it. */
export function desktopHeader(
  login: NeteaseLogin | undefined,
  device: AnonymousDevice,
): Record<string, string> {
  const values = deviceCookies(login, device, '/api/');
  return {
    osver: values.osver ?? PC.osver,
    deviceId: values.deviceId ?? device.deviceId,
    os: values.os ?? PC.os,
    appver: values.appver ?? PC.appver,
    versioncode: values.versioncode ?? '140',
    mobilename: values.mobilename ?? '',
    buildver: values.buildver ?? seconds(),
    resolution: values.resolution ?? '1920x1080',
    __csrf: login?.csrf ?? '',
    channel: values.channel ?? PC.channel,
    requestId: `${Date.now()}_${String(randomInt(1000)).padStart(4, '0')}`,
    ...(values.MUSIC_U && { MUSIC_U: values.MUSIC_U }),
    ...(values.MUSIC_A && { MUSIC_A: values.MUSIC_A }),
  };
}

export const headerCookie = (header: Record<string, string>): string => encodePairs(header);

/** The Android app's headers naming the device, and its Cookie header. */
export function appHeaders(
  login: NeteaseLogin | undefined,
  device: AnonymousDevice,
): { headers: Record<string, string>; cookie: string } {
  const values = deviceCookies(login, device, '/api/');
  const android = values.os === APP.os;
  const appver = android && values.appver ? values.appver : APP.appver;
  const osver = android && values.osver ? values.osver : APP.osver;
  const buildver = values.buildver ?? seconds();
  const deviceId = values.deviceId ?? device.deviceId;
  const sDeviceId = values.sDeviceId ?? deviceId;
  return {
    headers: {
      'x-client-enc-state': 'ENCRYPTED',
      'x-aeapi': 'true',
      'x-deviceid': deviceId,
      'x-os': APP.os,
      'x-osver': osver,
      'x-appver': appver,
      'x-sdeviceid': sDeviceId,
      'x-buildver': buildver,
      ...(values.MUSIC_U && { 'x-music-u': values.MUSIC_U }),
    },
    cookie: encodePairs({ ...values, os: APP.os, osver, appver, buildver, deviceId, sDeviceId }),
  };
}
