/**
 * NetEase Cloud Music's side of its three request forms, for the stand-ins (netease-api.ts and the
 * login and refresh ones): it reads a request the way NetEase would — the web form (weapi, a pinned
 * secret opens its payload), the desktop form (eapi: the path and md5 framing checked, the `header`
 * compared with the Cookie) and the Android app's guarded form (xeapi: its dynamic key opened with this
 * stand-in's own X25519 key, the masked and twice-encrypted body undone) — and refuses one without the
 * device cookies every NetEase client sends (`deviceId`, `os`, `appver`, `osver`, `channel`, and without
 * a login the anonymous `MUSIC_A`; the web form also `_ntes_nuid`, `WNMCID` and, past logins, `NMTID`).
 * It also answers the app's key request with this stand-in's key state, and opens and seals xeapi
 * answers. Constants are written out here from NeteaseCloudMusicApiEnhanced/api-enhanced
 * (util/crypto.js, util/request.js), not imported from the adapter.
 */
import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  createPrivateKey,
  createPublicKey,
  diffieHellman,
  generateKeyPairSync,
} from 'node:crypto';
import { HttpResponse } from 'msw';
import { cookieValues } from '../../shared/sources/http/cookies';
import { isWeapiForm, readWeapiPayload } from './weapi-form';

const EAPI_KEY = Buffer.from('e82ckenh8dichen8');
const EAPI_SEPARATOR = '-36cd479b6b5-';
const XEAPI_STATIC_KEY = Buffer.from(
  'ab1d5a430f6bb04a3f01e81ddd72bd916d5ce591248ac128714806d7f8fb1b84',
  'hex',
);
const XEAPI_SIGN_KEY =
  'mUHCwVNWJbunMqAHf5MImuirT6plvs6VSFW62MGHstFQxhBGdEoIhLItH3djc4+FB/OKty3+lL2rGeoFBpVe5g==';
const FORM = 'application/x-www-form-urlencoded';

/** The anonymous token the stand-in registers every device with. */
export const FIXTURE_MUSIC_A = 'fixture-anonymous-music-a-token';
const KEY_VERSION = '7';
const KEY_SK = 'fixture-sk-0001';
const serverKey = generateKeyPairSync('x25519');
const serverPublicRaw = serverKey.publicKey.export({ format: 'der', type: 'spki' }).subarray(-32);

export type NeteaseForm = 'web' | 'desktop' | 'app';

export interface ReadRequest {
  form: NeteaseForm;
  /** The request's path, e.g. `/eapi/cloudsearch/pc`. */
  path: string;
  cookie: string;
  /** The login (`MUSIC_U`) or anonymous token (`MUSIC_A`) the request carried. */
  musicU: string | undefined;
  musicA: string | undefined;
  referer: string | null;
  userAgent: string | null;
  /** The decrypted payload (web form only when the test pinned weapi's secret). */
  payload?: Record<string, unknown>;
  /** The app form's `x-deviceid`. */
  deviceId?: string;
}

const ecb = (key: Buffer, data: Buffer, decrypt = false): Buffer => {
  const algorithm = `aes-${key.length * 8}-ecb`;
  const cipher = decrypt ? createDecipheriv(algorithm, key, null) : createCipheriv(algorithm, key, null);
  return Buffer.concat([cipher.update(data), cipher.final()]);
};
const hmac = (key: string | Buffer, data: Buffer | string) => createHmac('sha256', key).update(data).digest();

const refused = (message: string) => HttpResponse.json({ code: 400, message }, { status: 400 });

/** The device cookies every form carries (values as the reference's clients send them). */
function deviceCookiesOk(values: Map<string, string>, path: string, form: NeteaseForm): boolean {
  const device =
    /^[0-9A-F]{52}$/.test(values.get('deviceId') ?? '') &&
    ['os', 'appver', 'osver', 'channel'].every((name) => values.get(name));
  const token = values.has('MUSIC_U') || values.get('MUSIC_A') === FIXTURE_MUSIC_A;
  if (form !== 'web') return device && (token || path.endsWith('/register/anonimous'));
  return (
    device &&
    token &&
    /^[0-9a-f]{64}$/.test(values.get('_ntes_nuid') ?? '') &&
    /^[a-z]{6}\.\d+\.01\.0$/.test(values.get('WNMCID') ?? '') &&
    (path.includes('login') || /^[0-9a-f]{32}$/.test(values.get('NMTID') ?? ''))
  );
}

function readWeb(request: Request, body: string, path: string, secret?: string): ReadRequest | Response {
  const form = new URLSearchParams(body);
  if (request.headers.get('content-type') !== FORM || !isWeapiForm(form))
    return refused('not a weapi request');
  if (request.headers.get('referer') !== 'https://music.163.com') return refused('no referer');
  return {
    form: 'web',
    path,
    cookie: request.headers.get('cookie') ?? '',
    musicU: undefined,
    musicA: undefined,
    referer: request.headers.get('referer'),
    userAgent: request.headers.get('user-agent'),
    ...(secret && { payload: readWeapiPayload(form, secret) }),
  };
}

function readDesktop(request: Request, body: string, path: string): ReadRequest | Response {
  const params = new URLSearchParams(body).get('params') ?? '';
  if (request.headers.get('content-type') !== FORM || !/^[0-9A-F]+$/.test(params))
    return refused('not an eapi request');
  let framed: string;
  try {
    framed = ecb(EAPI_KEY, Buffer.from(params, 'hex'), true).toString('utf8');
  } catch {
    return refused('not an eapi request');
  }
  const [apiPath, text, digest] = framed.split(EAPI_SEPARATOR);
  const expected = createHash('md5').update(`nobody${apiPath}use${text}md5forencrypt`).digest('hex');
  if (apiPath !== path.replace(/^\/eapi\//, '/api/') || digest !== expected) return refused('eapi framing');
  const { header, ...payload } = JSON.parse(text ?? '{}') as { header?: Record<string, string> };
  const cookie = request.headers.get('cookie') ?? '';
  const values = cookieValues(cookie);
  // The header cookie is the payload's `header`, pair for pair.
  const sameHeader =
    header !== undefined &&
    ['versioncode', 'buildver', 'resolution', 'requestId'].every((name) => header[name]) &&
    Object.entries(header).every(([name, value]) => decodeURIComponent(values.get(name) ?? '') === value);
  if (!sameHeader) return refused('eapi header');
  return {
    form: 'desktop',
    path,
    cookie,
    musicU: undefined,
    musicA: undefined,
    referer: request.headers.get('referer'),
    userAgent: request.headers.get('user-agent'),
    payload,
  };
}

/** Opens `S` with this stand-in's key: the dynamic key, if the request was sealed for the current key state. */
function openSealedKey(sealed: Buffer): Buffer | undefined {
  const ephemeral = sealed.subarray(0, 32);
  const iv = sealed.subarray(32, 44);
  const tag = sealed.subarray(sealed.length - 16);
  const ciphertext = sealed.subarray(44, sealed.length - 16);
  const peer = createPublicKey({
    key: Buffer.concat([Buffer.from('302a300506032b656e032100', 'hex'), ephemeral]),
    format: 'der',
    type: 'spki',
  });
  const shared = diffieHellman({
    privateKey: createPrivateKey(serverKey.privateKey.export({ format: 'pem', type: 'pkcs8' })),
    publicKey: peer,
  });
  const aesKey = hmac(hmac(Buffer.alloc(32), shared), Buffer.concat([ephemeral, Buffer.from([1])])).subarray(
    0,
    16,
  );
  const decipher = createDecipheriv('aes-128-gcm', aesKey, iv);
  decipher.setAuthTag(tag);
  const [keyText, os, sk] = Buffer.concat([decipher.update(ciphertext), decipher.final()])
    .toString('utf8')
    .split('|');
  return os === 'android' && sk === KEY_SK ? Buffer.from(keyText ?? '', 'base64') : undefined;
}

/** Undoes the mask: 16 random bytes, then rotated base64 of the XOR-ed bytes. */
function unmask(masked: Buffer): Buffer {
  const random = masked.subarray(0, 16);
  const rotated = masked.subarray(16);
  const rotate = rotated.length ? ((random[0] ?? 0) & 0x0f) % rotated.length : 0;
  const text = Buffer.concat([
    rotated.subarray(rotated.length - rotate),
    rotated.subarray(0, rotated.length - rotate),
  ]);
  const xored = Buffer.from(text.toString('latin1'), 'base64');
  return Buffer.from(xored.map((byte, i) => byte ^ (random[i & 0x0f] ?? 0)));
}

function readApp(request: Request, body: string, path: string): ReadRequest | Response {
  const form = new URLSearchParams(body);
  const headers = request.headers;
  if (
    headers.get('x-client-enc-state') !== 'ENCRYPTED' ||
    headers.get('x-os') !== 'android' ||
    !headers.get('x-appver') ||
    !headers.get('x-buildver') ||
    headers.get('x-deviceid') !== headers.get('x-sdeviceid')
  )
    return refused('not an xeapi request');
  try {
    const dynamicKey = openSealedKey(Buffer.from(form.get('S') ?? '', 'base64'));
    const [version] = ecb(XEAPI_STATIC_KEY, Buffer.from(form.get('R') ?? '', 'base64'), true)
      .toString('utf8')
      .split('|');
    if (!dynamicKey || version !== KEY_VERSION) return refused('xeapi key');
    const inner = unmask(ecb(dynamicKey, Buffer.from(form.get('B') ?? '', 'base64'), true));
    const plain = JSON.parse(ecb(XEAPI_STATIC_KEY, inner, true).toString('utf8')) as {
      body: string;
      queryString: string;
    };
    if (plain.queryString !== 'e_r=true') return refused('xeapi query');
    const payload = Object.fromEntries(
      new URLSearchParams(Buffer.from(plain.body, 'base64').toString('utf8')),
    );
    return {
      form: 'app',
      path,
      cookie: headers.get('cookie') ?? '',
      musicU: undefined,
      musicA: undefined,
      referer: headers.get('referer'),
      userAgent: headers.get('user-agent'),
      payload,
      deviceId: headers.get('x-deviceid') ?? '',
    };
  } catch {
    return refused('not an xeapi request');
  }
}

/**
 * A request to any NetEase API host read as NetEase reads it, or the refusal of one without the real
 * shape (HTTP 400, as a form NetEase cannot read is answered).
 */
export async function readNeteaseRequest(
  request: Request,
  weapiSecret?: string,
): Promise<ReadRequest | Response> {
  const { hostname, pathname } = new URL(request.url);
  if (request.method !== 'POST') return refused('not a POST');
  const body = await request.text();
  const form: NeteaseForm | undefined =
    hostname === 'music.163.com' && pathname.startsWith('/weapi/')
      ? 'web'
      : hostname === 'interfacepc.music.163.com' && pathname.startsWith('/eapi/')
        ? 'desktop'
        : hostname === 'interface3.music.163.com' && pathname.startsWith('/xeapi/')
          ? 'app'
          : undefined;
  if (!form) return refused('no such api');
  const read =
    form === 'web'
      ? readWeb(request, body, pathname, weapiSecret)
      : form === 'desktop'
        ? readDesktop(request, body, pathname)
        : readApp(request, body, pathname);
  if (read instanceof Response) return read;
  const values = cookieValues(read.cookie);
  const decoded = new Map([...values].map(([name, value]) => [name, decodeURIComponent(value)]));
  if (!deviceCookiesOk(decoded, pathname, form)) return refused('no device cookies');
  return { ...read, musicU: decoded.get('MUSIC_U'), musicA: decoded.get('MUSIC_A') };
}

/** An answer as the app form sends it: AES-128-ECB under the eapi key (no gzip here). */
export function sealedAppAnswer(body: unknown, headers?: HeadersInit): Response {
  const sealed = ecb(EAPI_KEY, Buffer.from(JSON.stringify(body)));
  return new Response(new Uint8Array(sealed), { headers });
}

/** The app's key request: a signed form; answered with this stand-in's key state, signed back. */
export async function keyAnswer(request: Request): Promise<Response> {
  const form = new URLSearchParams(await request.text());
  const nonce = form.get('nonce') ?? '';
  const signed = hmac(XEAPI_SIGN_KEY, `${form.get('timestamp')}${nonce}`).toString('base64');
  if (
    !/^\d{16}$/.test(nonce) ||
    form.get('signature') !== signed ||
    form.get('os') !== 'android' ||
    !/^[0-9A-F]{52}$/.test(form.get('deviceId') ?? '')
  )
    return HttpResponse.json({ code: 400, message: 'bad signature' });
  const state = { publicKey: serverPublicRaw.toString('base64'), version: KEY_VERSION, sk: KEY_SK };
  const timestamp = String(Date.now());
  return HttpResponse.json({
    code: 200,
    data: {
      encryptedData: ecb(XEAPI_STATIC_KEY, Buffer.from(JSON.stringify(state))).toString('base64'),
      signature: hmac(XEAPI_SIGN_KEY, `${timestamp}${nonce}`).toString('base64'),
      timestamp,
    },
  });
}

/** The anonymous registration: the `username` must be the device id and its digest. */
export function registrationAnswer(asked: ReadRequest): Response {
  const [deviceId] = Buffer.from(String(asked.payload?.username ?? ''), 'base64')
    .toString('utf8')
    .split(' ');
  if (deviceId !== asked.deviceId) return sealedAppAnswer({ code: 400, message: 'bad username' });
  return sealedAppAnswer({ code: 200, userId: 9000000001, createTime: 1_700_000_000_000 }, [
    ['set-cookie', `MUSIC_A=${FIXTURE_MUSIC_A}; Max-Age=2147483647; Path=/`],
  ]);
}
