/**
 * Per-packet encryption (paper §1.6, §3): EAX with a key and nonce derived from the SharedIV, the
 * direction, the packet type, the generation and the packet id. Before the session keys exist, Command and
 * Ack packets use the fixed "fake" key and nonce. Unencrypted packets carry the SharedMac as their MAC.
 */
import { createHash } from 'node:crypto';
import { err, ok, type Result } from '../../shared/result';
import { eaxDecrypt, eaxEncrypt, TS3_TAG_BYTES } from './eax';
import { assemblePacket, type Direction, type Packet, type PacketType } from './packet';

/** `c:\windows\system\firewall32.cpl` cut in two. */
export const FAKE_KEY = Buffer.from('c:\\windows\\syste', 'ascii');
export const FAKE_NONCE = Buffer.from('m\\firewall32.cpl', 'ascii');
export const INIT1_MAC = Buffer.from('TS3INIT1', 'ascii');

export interface KeyNonce {
  key: Buffer;
  nonce: Buffer;
}

const DIRECTION_BYTE: Record<Direction, number> = { c2s: 0x31, s2c: 0x30 };

/** SHA-256 over `dir ‖ type ‖ generation ‖ SharedIV`; key = first 16 bytes, nonce = last 16. */
export function keyNonceBase(
  sharedIv: Uint8Array,
  direction: Direction,
  type: number,
  generation: number,
): Buffer {
  const input = Buffer.alloc(6 + sharedIv.length);
  input[0] = DIRECTION_BYTE[direction];
  input[1] = type;
  input.writeUInt32BE(generation >>> 0, 2);
  input.set(sharedIv, 6);
  return createHash('sha256').update(input).digest();
}

/** The packet id is mixed into the first two key bytes. */
export function keyNonceFor(base: Buffer, packetId: number): KeyNonce {
  const key = Buffer.from(base.subarray(0, 16));
  key[0]! ^= packetId >> 8;
  key[1]! ^= packetId & 0xff;
  return { key, nonce: base.subarray(16, 32) };
}

/**
 * SharedIV on the `initivexpand2` path (paper §3.2.3): SHA-512 of the 32-byte shared point, with alpha
 * (10 bytes) XORed in at 0 and beta (54 bytes) at 10.
 */
export function deriveSharedIv(sharedPoint: Uint8Array, alpha: Uint8Array, beta: Uint8Array): Buffer {
  const iv = createHash('sha512').update(sharedPoint).digest();
  for (let i = 0; i < alpha.length && i < 10; i++) iv[i]! ^= alpha[i]!;
  for (let i = 0; i < beta.length && i < 54; i++) iv[10 + i]! ^= beta[i]!;
  return iv;
}

/** SharedMac = first 8 bytes of SHA-1(SharedIV). */
export function sharedMacOf(sharedIv: Uint8Array): Buffer {
  return createHash('sha1').update(sharedIv).digest().subarray(0, 8);
}

/** Session keys of one connection; the SHA-256 per (direction, type, generation) is cached. */
export class SessionKeys {
  readonly sharedMac: Buffer;
  private readonly cache = new Map<number, Buffer>();

  constructor(readonly sharedIv: Buffer) {
    this.sharedMac = sharedMacOf(sharedIv);
  }

  keyNonce(direction: Direction, type: PacketType, generation: number, packetId: number): KeyNonce {
    const slot = (direction === 'c2s' ? 0x1_0000_0000_0 : 0) + type * 0x1_0000_0000 + (generation >>> 0);
    let base = this.cache.get(slot);
    if (!base) {
      base = keyNonceBase(this.sharedIv, direction, type, generation);
      this.cache.set(slot, base);
    }
    return keyNonceFor(base, packetId);
  }
}

export const FAKE_KEY_NONCE: KeyNonce = { key: FAKE_KEY, nonce: FAKE_NONCE };

/** Encrypts the payload and prepends the 8-byte tag as MAC. */
export function sealPacket(keyNonce: KeyNonce, meta: Buffer, payload: Uint8Array): Buffer {
  const { ciphertext, tag } = eaxEncrypt(keyNonce.key, keyNonce.nonce, meta, payload);
  return assemblePacket(tag.subarray(0, TS3_TAG_BYTES), meta, ciphertext);
}

export function openPacket(keyNonce: KeyNonce, packet: Packet): Result<Buffer> {
  return eaxDecrypt(keyNonce.key, keyNonce.nonce, packet.meta, packet.payload, packet.mac);
}

/** Unencrypted packets (Ping, Pong, clear Voice) must carry the SharedMac (zeros before the handshake). */
export function checkPlainMac(expected: Buffer, packet: Packet): Result<Buffer> {
  return packet.mac.equals(expected) ? ok(packet.payload) : err('wrong MAC on an unencrypted packet');
}
