/**
 * NetEase Cloud Music's `xeapi` request encryption, as its Android app (9.x) does it for the calls it
 * guards most (the audio URL, registering an anonymous device):
 *
 * - the app first fetches the server's current public key state (an X25519 key, its `version` and a
 *   session text `sk`): a signed form to `/api/gorilla/anti/crawler/security/key/get`, answered with
 *   the state AES-256-ECB encrypted under a fixed key and signed back (HMAC-SHA256 over time + nonce);
 * - a request's plaintext is `{"body": base64(form), "queryString": "e_r=true"}`, AES-256-ECB encrypted
 *   under the fixed key, masked (XOR with 16 random bytes, base64, rotated, the random bytes in front)
 *   and AES-128-ECB encrypted again under a 16-byte dynamic key → `B`;
 * - the dynamic key travels as `S`: an ephemeral X25519 key agreement with the server's key, an
 *   HMAC-SHA256-derived AES-128-GCM key, `base64(key)|android|sk` encrypted (ephemeral key, IV,
 *   ciphertext, tag) → `S`;
 * - `R` names the key version (and a session the server opened, `x-encr-ssid`/`x-encr-sskey`, whose key
 *   is then the dynamic key);
 * - answers are AES-128-ECB under the eapi key, gzipped when they start with gzip's magic.
 *
 * Every constant and step from NeteaseCloudMusicApiEnhanced/api-enhanced (util/crypto.js `xeapi`,
 * `buildXeapiPlaintext`, `xeapiMidTransform`, `xeapiEncryptS`, `deriveX25519AesKey`, `xeapiSign`,
 * `xeapiResDecrypt`, `xeapiDecryptPublicKey`; module/register_xeapikey.js).
 */
import {
  createCipheriv,
  createDecipheriv,
  createHmac,
  createPublicKey,
  diffieHellman,
  generateKeyPairSync,
  randomBytes,
  randomInt,
} from 'node:crypto';
import { gunzipSync } from 'node:zlib';
import { z } from 'zod';
import { err, ok, type Result } from '../../result';
import { EAPI_KEY } from './eapi';

export const XEAPI_STATIC_KEY = Buffer.from(
  'ab1d5a430f6bb04a3f01e81ddd72bd916d5ce591248ac128714806d7f8fb1b84',
  'hex',
);
const SIGN_KEY = 'mUHCwVNWJbunMqAHf5MImuirT6plvs6VSFW62MGHstFQxhBGdEoIhLItH3djc4+FB/OKty3+lL2rGeoFBpVe5g==';
/** DER prefix of an X25519 public key (RFC 8410), before its 32 raw bytes. */
const X25519_SPKI_PREFIX = Buffer.from('302a300506032b656e032100', 'hex');
const GZIP_MAGIC = [0x1f, 0x8b];

/** The server's public key state: its key is a raw X25519 key (32 bytes, base64). */
export const KeyStateSchema = z.object({
  publicKey: z.string().refine((key) => Buffer.from(key, 'base64').length === 32),
  version: z.union([z.string(), z.number()]).transform(String),
  sk: z.string().min(1),
});
export type KeyState = z.output<typeof KeyStateSchema>;

/** A session the server opened for later requests (answer headers `x-encr-ssid`, `x-encr-sskey`). */
export interface XeapiSession {
  id: string;
  key: string;
}

/**
 * The session an answer's headers open, when they name one whose key can be the AES key its requests
 * are sealed with (16, 24 or 32 bytes): any other key would make every later request throw.
 */
export function openedSession(id: string | null, key: string | null): XeapiSession | undefined {
  return id && key && [16, 24, 32].includes(Buffer.byteLength(key)) ? { id, key } : undefined;
}

export const xeapiSign = (timestamp: string, nonce: string): string =>
  createHmac('sha256', SIGN_KEY).update(`${timestamp}${nonce}`).digest('base64');

const ecb = (key: Buffer, data: Buffer, decrypt = false): Buffer => {
  const algorithm = `aes-${key.length * 8}-ecb`;
  const cipher = decrypt ? createDecipheriv(algorithm, key, null) : createCipheriv(algorithm, key, null);
  return Buffer.concat([cipher.update(data), cipher.final()]);
};

/** The key state inside a key answer's `encryptedData`, or undefined when it is not one. */
export function openKeyState(encryptedData: string): KeyState | undefined {
  try {
    const state = KeyStateSchema.safeParse(
      JSON.parse(ecb(XEAPI_STATIC_KEY, Buffer.from(encryptedData, 'base64'), true).toString('utf8')),
    );
    return state.success ? state.data : undefined;
  } catch {
    return undefined;
  }
}

/** The XOR mask: 16 random bytes, then the masked bytes as base64, rotated by the first byte's low bits. */
function mask(data: Buffer): Buffer {
  const random = randomBytes(16);
  const xored = Buffer.alloc(data.length);
  data.forEach((byte, i) => {
    xored[i] = byte ^ (random[i & 0x0f] ?? 0);
  });
  const masked = Buffer.from(xored.toString('base64'));
  const rotate = masked.length ? ((random[0] ?? 0) & 0x0f) % masked.length : 0;
  return Buffer.concat([random, masked.subarray(rotate), masked.subarray(0, rotate)]);
}

/** `S`: the dynamic key for the server's key, through an ephemeral X25519 agreement and AES-128-GCM. */
function sealKey(dynamicKey: Buffer, state: KeyState, os: string): Buffer {
  const peer = createPublicKey({
    key: Buffer.concat([X25519_SPKI_PREFIX, Buffer.from(state.publicKey, 'base64')]),
    format: 'der',
    type: 'spki',
  });
  const { publicKey, privateKey } = generateKeyPairSync('x25519');
  const ephemeral = publicKey.export({ format: 'der', type: 'spki' }).subarray(-32);
  const shared = diffieHellman({ privateKey, publicKey: peer });
  const prk = createHmac('sha256', Buffer.alloc(32))
    .update(shared.length ? shared : Buffer.alloc(32))
    .digest();
  const aesKey = createHmac('sha256', prk)
    .update(Buffer.concat([ephemeral, Buffer.from([1])]))
    .digest()
    .subarray(0, 16);
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-128-gcm', aesKey, iv);
  const sealed = Buffer.concat([
    cipher.update(`${dynamicKey.toString('base64')}|${os}|${state.sk}`),
    cipher.final(),
  ]);
  return Buffer.concat([ephemeral, iv, sealed, cipher.getAuthTag()]);
}

/**
 * The `B`, `S`, `R` form of an xeapi request carrying `data` as its form body; an error when the
 * server's key admits no agreement (a low-order X25519 point such as all zeros makes the derivation fail).
 */
export function xeapi(
  data: Record<string, string>,
  state: KeyState,
  session: XeapiSession | undefined,
  os = 'android',
): Result<Record<'B' | 'S' | 'R', string>> {
  const dynamicKey = session ? Buffer.from(session.key) : randomBytes(16);
  let sealed: Buffer;
  try {
    sealed = sealKey(dynamicKey, state, os);
  } catch {
    return err('its request key cannot be used');
  }
  const plaintext = JSON.stringify({
    body: Buffer.from(new URLSearchParams(data).toString()).toString('base64'),
    queryString: 'e_r=true',
  });
  const inner = ecb(XEAPI_STATIC_KEY, Buffer.from(plaintext));
  return ok({
    B: ecb(dynamicKey, mask(inner)).toString('base64'),
    S: sealed.toString('base64'),
    R: ecb(XEAPI_STATIC_KEY, Buffer.from(`${state.version}|${session ? session.id : ''}`)).toString('base64'),
  });
}

/** An xeapi answer's JSON: AES-128-ECB under the eapi key, gunzipped when gzipped. */
export function openXeapiAnswer(body: Buffer): Result<unknown> {
  try {
    const plain = ecb(Buffer.from(EAPI_KEY), body, true);
    const text = plain[0] === GZIP_MAGIC[0] && plain[1] === GZIP_MAGIC[1] ? gunzipSync(plain) : plain;
    return ok(JSON.parse(text.toString('utf8')));
  } catch {
    return err('its answer could not be decrypted');
  }
}

/** A 16-digit nonce, as the key request carries one. */
export const keyNonce = (): string => Array.from({ length: 16 }, () => randomInt(10)).join('');
