/**
 * NetEase Cloud Music's `weapi` request encryption, as its web player does it: the JSON payload is
 * AES-128-CBC encrypted with a public preset key, its base64 text encrypted again with a random
 * 16-character secret, and the secret (reversed) RSA-encrypted without padding for the server. The
 * request body is the form `params=<base64>&encSecKey=<256 hex digits>`.
 *
 * Constants (IV, preset key, base62 alphabet, public exponent and modulus) and the order of steps
 * from Binaryify/NeteaseCloudMusicApi (util/crypto.js, `weapi`; util/request.js: form encoding).
 */
import { createCipheriv, randomInt } from 'node:crypto';

export const IV = '0102030405060708';
export const PRESET_KEY = '0CoJUm6Qyw8W8jud';
const SECRET_ALPHABET = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const SECRET_LENGTH = 16;
export const RSA_EXPONENT = 0x10001n;
export const RSA_MODULUS = BigInt(
  '0xe0b509f6259df8642dbc35662901477df22677ec152b5ff68ace615bb7b725152b3ab17a876aea8a5aa76d2e417629ec4ee341' +
    'f56135fccf695280104e0312ecbda92557c93870114af6c9d05c4f7f0c3685b7a46bee255932575cce10b424d813cfe4875d3e' +
    '82047b97ddef52741d546b8e289dc6935b3ece0462db0a22b8e7',
);
/** 1024-bit modulus: the encrypted secret is always 128 bytes, i.e. 256 hex digits. */
const ENC_SEC_KEY_DIGITS = 256;

export interface WeapiForm {
  params: string;
  encSecKey: string;
}

export function randomSecret(): string {
  const pick = () => SECRET_ALPHABET.charAt(randomInt(SECRET_ALPHABET.length));
  return Array.from({ length: SECRET_LENGTH }, pick).join('');
}

/** Encrypts a payload; `secret` is fixed only by tests (16 ASCII characters). */
export function weapi(payload: object, secret: string = randomSecret()): WeapiForm {
  const once = aesCbc(JSON.stringify(payload), PRESET_KEY);
  return { params: aesCbc(once, secret), encSecKey: rsaNoPadding(reverse(secret)) };
}

/** AES-128-CBC with the fixed IV and PKCS#7 padding, as base64. */
function aesCbc(text: string, key: string): string {
  const cipher = createCipheriv('aes-128-cbc', Buffer.from(key), Buffer.from(IV));
  return Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]).toString('base64');
}

/** Textbook RSA (m^e mod n) of the text read as one big-endian number, as zero-padded hex. */
function rsaNoPadding(text: string): string {
  const message = BigInt(`0x${Buffer.from(text).toString('hex')}`);
  return modPow(message, RSA_EXPONENT, RSA_MODULUS).toString(16).padStart(ENC_SEC_KEY_DIGITS, '0');
}

function modPow(base: bigint, exponent: bigint, modulus: bigint): bigint {
  let result = 1n;
  let b = base % modulus;
  for (let e = exponent; e > 0n; e >>= 1n) {
    if (e & 1n) result = (result * b) % modulus;
    b = (b * b) % modulus;
  }
  return result;
}

const reverse = (text: string) => [...text].reverse().join('');
