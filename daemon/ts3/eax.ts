/**
 * AES-128 in EAX mode (Bellare, Rogaway, Wagner), built from node:crypto's ECB, CBC and CTR because Node
 * has no EAX. TeamSpeak sends only the first 8 bytes of the tag (the packet's MAC field).
 */
import { createCipheriv, timingSafeEqual } from 'node:crypto';
import { err, ok, type Result } from '../../shared/result';

const BLOCK = 16;
const ZERO_BLOCK = Buffer.alloc(BLOCK);
/** TeamSpeak truncates the EAX tag to this many bytes. */
export const TS3_TAG_BYTES = 8;

/** Doubling in GF(2^128) as CMAC (RFC 4493) uses it to derive its two subkeys. */
function double(block: Buffer): Buffer {
  const out = Buffer.alloc(BLOCK);
  let carry = 0;
  for (let i = BLOCK - 1; i >= 0; i--) {
    const b = block[i]!;
    out[i] = ((b << 1) & 0xff) | carry;
    carry = b >> 7;
  }
  if ((block[0]! & 0x80) !== 0) out[BLOCK - 1]! ^= 0x87;
  return out;
}

/** The CMAC subkeys K1 and K2 for one AES key. */
function subkeys(key: Uint8Array): [Buffer, Buffer] {
  const l = createCipheriv('aes-128-ecb', key, null).setAutoPadding(false).update(ZERO_BLOCK);
  const k1 = double(l);
  return [k1, double(k1)];
}

/**
 * OMAC^t(data) = CMAC(key, [t]_128 ‖ data). The tweak block makes the input at least one block long, so the
 * empty-message case of CMAC never arises.
 */
function omac(key: Uint8Array, keys: [Buffer, Buffer], tweak: number, data: Uint8Array): Buffer {
  const total = BLOCK + data.length;
  const complete = total % BLOCK === 0;
  const padded = complete ? total : total + (BLOCK - (total % BLOCK));
  const buf = Buffer.alloc(padded);
  buf[BLOCK - 1] = tweak;
  buf.set(data, BLOCK);
  if (!complete) buf[total] = 0x80;
  const sub = complete ? keys[0] : keys[1];
  const last = padded - BLOCK;
  for (let i = 0; i < BLOCK; i++) buf[last + i]! ^= sub[i]!;
  const cbc = createCipheriv('aes-128-cbc', key, ZERO_BLOCK).setAutoPadding(false).update(buf);
  return cbc.subarray(cbc.length - BLOCK);
}

function xor3(a: Buffer, b: Buffer, c: Buffer): Buffer {
  const out = Buffer.alloc(BLOCK);
  for (let i = 0; i < BLOCK; i++) out[i] = a[i]! ^ b[i]! ^ c[i]!;
  return out;
}

export interface EaxSealed {
  ciphertext: Buffer;
  /** The full 16-byte tag; TeamSpeak puts `tag.subarray(0, 8)` on the wire. */
  tag: Buffer;
}

export function eaxEncrypt(
  key: Uint8Array,
  nonce: Uint8Array,
  header: Uint8Array,
  plaintext: Uint8Array,
): EaxSealed {
  const keys = subkeys(key);
  const n = omac(key, keys, 0, nonce);
  const h = omac(key, keys, 1, header);
  const ciphertext = createCipheriv('aes-128-ctr', key, n).update(plaintext);
  const c = omac(key, keys, 2, ciphertext);
  return { ciphertext, tag: xor3(n, h, c) };
}

/** Checks `tag` (any prefix length of the full tag, 8 bytes for TeamSpeak) and decrypts. */
export function eaxDecrypt(
  key: Uint8Array,
  nonce: Uint8Array,
  header: Uint8Array,
  ciphertext: Uint8Array,
  tag: Uint8Array,
): Result<Buffer> {
  const keys = subkeys(key);
  const n = omac(key, keys, 0, nonce);
  const h = omac(key, keys, 1, header);
  const c = omac(key, keys, 2, ciphertext);
  const expected = xor3(n, h, c).subarray(0, tag.length);
  if (tag.length === 0 || !timingSafeEqual(expected, tag)) return err('EAX tag mismatch');
  return ok(createCipheriv('aes-128-ctr', key, n).update(ciphertext));
}
