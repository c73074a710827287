/**
 * The device's QIMEI: the pair of device ids (`q16`, `q36`) Tencent's QIMEI service hands a phone and
 * QQ Music's app sends in every request's `comm` (`QIMEI`, `QIMEI36`). The app asks for them with a
 * description of the phone, AES-128-CBC encrypted under a random 16-character key (the key is its own
 * IV), the key RSA-encrypted (PKCS#1 v1.5) for Tencent, the whole signed with md5 over the fields and
 * the app's secret; the answer's `data` is a JSON text whose `data` holds the two ids.
 *
 * Request, constants and answer from L-1124/QQMusicApi (qqmusic_api/utils/qimei.py
 * `_build_qimei_request`, `random_payload_by_device`, `random_beacon_id`, `QimeiManager`: app key,
 * channel, SDK and app versions, the proxy's service and method names; utils/device.py `random_imei`).
 */
import { constants, createCipheriv, createHash, publicEncrypt, randomInt } from 'node:crypto';
import { z } from 'zod';
import { err, ok, type Result } from '../../result';
import { fetchJson } from '../http/fetch-json';

export const QIMEI_URL = 'https://api.tencentmusic.com/tme/trpc/proxy';
const SERVICE = 'QQ Music device registration';
const TENCENT_PUBLIC_KEY = `-----BEGIN PUBLIC KEY-----
MIGfMA0GCSqGSIb3DQEBAQUAA4GNADCBiQKBgQDEIxgwoutfwoJxcGQeedgP7FG9qaIuS0qzfR8gWkrkTZKM2iWHn2ajQpBRZjMSoSf6+KJGvar2ORhBfpDXyVtZCKpqLQ+FLkpncClKVIrBwv6PHyUvuCb0rIarmgDnzkfQAqVufEtR64iazGDKatvJ9y6B9NMbHddGSAUmRTCrHQIDAQAB
-----END PUBLIC KEY-----`;
const SECRET = 'ZdJqM15EeO2zWc08';
const APP_KEY = '0AND0HD6FE4HY80F';
const HEADER_SIGN_SALT = 'qimei_qq_androidpzAuCmaFAaFaHrdakPjLIEqKrGnSOOvH';
const APP_VERSION = '14.9.0.8';
const SDK_VERSION = '1.2.13.6';
const HEX = '0123456789abcdef';

/** The phone the app says it runs on (qq-mobile-client.ts sends the same one). */
export interface QimeiDevice {
  androidId: string;
  brand: string;
  device: string;
  model: string;
  system: string;
  sdk: number;
}

export interface Qimei {
  q16: string;
  q36: string;
}

const AnswerSchema = z.object({ data: z.string() });
const IdsSchema = z.object({ data: z.object({ q16: z.string().min(1), q36: z.string().min(1) }) });

const md5 = (...parts: string[]) => createHash('md5').update(parts.join('')).digest('hex');
const randomText = (alphabet: string, length: number) =>
  Array.from({ length }, () => alphabet.charAt(randomInt(alphabet.length))).join('');

/** A random IMEI: 14 random digits and the Luhn check digit. */
function randomImei(): string {
  const digits = Array.from({ length: 14 }, () => randomInt(10));
  const sum = digits.reduce((total, digit, i) => {
    const weighted = i % 2 === 1 ? digit * 2 : digit;
    return total + (weighted > 9 ? weighted - 9 : weighted);
  }, 0);
  return [...digits, (10 - (sum % 10)) % 10].join('');
}

/** The analytics beacon's id string: 40 `k<n>:<value>;` fields, most of them random. */
function beaconId(): string {
  const month = `${new Date().toISOString().slice(0, 8)}01`;
  const stamp = `${month}${randomInt(100000, 1000000)}.${randomInt(100000000, 1000000000)}`;
  const timed = new Set([1, 2, 13, 14, 17, 18, 21, 22, 25, 26, 29, 30, 33, 34, 37, 38]);
  return Array.from({ length: 40 }, (_, i) => {
    const n = i + 1;
    if (timed.has(n)) return `k${n}:${stamp};`;
    if (n === 3) return 'k3:0000000000000000;';
    if (n === 4) return `k4:${randomText(HEX.slice(1), 16)};`;
    return `k${n}:${randomInt(10000)};`;
  }).join('');
}

function phoneDescription(phone: QimeiDevice): Record<string, unknown> {
  const uptime = new Date(Date.now() - randomInt(14401) * 1000).toISOString().slice(0, 19).replace('T', ' ');
  const reserved = {
    harmony: '0',
    clone: '0',
    containe: '',
    oz: 'UhYmelwouA+V2nPWbOvLTgN2/m8jwGB+yUB5v9tysQg=',
    oo: 'Xecjt+9S1+f8Pz2VLSxgpw==',
    kelong: '0',
    uptimes: uptime,
    multiUser: '0',
    bod: phone.brand,
    dv: phone.device,
    firstLevel: '',
    manufact: phone.brand,
    name: phone.model,
    host: 'se.infra',
    kernel: `Linux 5.4.0-54-generic-${randomText('ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789', 8)} (android-build@google.com)`,
  };
  return {
    androidId: phone.androidId,
    platformId: 1,
    appKey: APP_KEY,
    appVersion: APP_VERSION,
    beaconIdSrc: beaconId(),
    brand: phone.brand,
    channelId: '10003505',
    cid: '',
    imei: randomImei(),
    imsi: '',
    mac: '',
    model: phone.model,
    networkType: 'unknown',
    oaid: '',
    osVersion: `Android ${phone.system},level ${phone.sdk}`,
    qimei: '',
    qimei36: '',
    sdkVersion: SDK_VERSION,
    targetSdkVersion: '33',
    audit: '',
    userId: '{}',
    packageId: 'com.tencent.qqmusic',
    deviceType: 'Phone',
    sdkName: '',
    reserved: JSON.stringify(reserved),
  };
}

/** The two device ids Tencent hands this phone, or the sentence saying why it did not. */
export async function askQimei(phone: QimeiDevice): Promise<Result<Qimei>> {
  const cryptKey = randomText(HEX, 16);
  const nonce = randomText(HEX, 16);
  const seconds = Math.floor(Date.now() / 1000);
  const key = publicEncrypt(
    { key: TENCENT_PUBLIC_KEY, padding: constants.RSA_PKCS1_PADDING },
    Buffer.from(cryptKey),
  ).toString('base64');
  const cipher = createCipheriv('aes-128-cbc', cryptKey, cryptKey);
  const params = Buffer.concat([
    cipher.update(JSON.stringify(phoneDescription(phone)), 'utf8'),
    cipher.final(),
  ]).toString('base64');
  const extra = `{"appKey":"${APP_KEY}"}`;
  const answer = await fetchJson(SERVICE, QIMEI_URL, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      method: 'GetQimei',
      service: 'trpc.tme_datasvr.qimeiproxy.QimeiProxy',
      appid: 'qimei_qq_android',
      sign: md5(HEADER_SIGN_SALT, String(seconds)),
      'user-agent': 'QQMusic',
      timestamp: String(seconds),
    },
    body: JSON.stringify({
      app: 0,
      os: 1,
      qimeiParams: {
        key,
        params,
        time: String(seconds),
        nonce,
        sign: md5(key, params, String(seconds * 1000), nonce, SECRET, extra),
        extra,
      },
    }),
  });
  if (!answer.ok) return answer;
  const outer = AnswerSchema.safeParse(answer.value);
  let inner: unknown;
  try {
    inner = outer.success ? JSON.parse(outer.data.data) : undefined;
  } catch {
    inner = undefined;
  }
  const ids = IdsSchema.safeParse(inner);
  return ids.success ? ok(ids.data.data) : err(`${SERVICE} answered in an unexpected shape`);
}
