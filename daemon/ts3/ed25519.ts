/**
 * Ed25519 (twisted Edwards) point arithmetic the way TeamSpeak uses it for the license chain and the
 * ephemeral key exchange (paper §3.2.2.4): compressed points and little-endian scalars. This is not X25519.
 */
import { randomBytes } from 'node:crypto';
import type { EdwardsPoint } from '@noble/curves/abstract/edwards.js';
import { ed25519 } from '@noble/curves/ed25519.js';
import { err, ok, type Result } from '../../shared/result';

const Point = ed25519.Point;
const ORDER = Point.Fn.ORDER;

export type { EdwardsPoint };

export function decodePoint(bytes: Uint8Array): Result<EdwardsPoint> {
  try {
    return ok(Point.fromBytes(bytes));
  } catch {
    return err('not a valid compressed Ed25519 point');
  }
}

export function encodePoint(point: EdwardsPoint): Buffer {
  return Buffer.from(point.toBytes());
}

export function scalarFromLe(bytes: Uint8Array): bigint {
  let n = 0n;
  for (let i = bytes.length - 1; i >= 0; i--) n = (n << 8n) | BigInt(bytes[i]!);
  return n;
}

export function scalarToLe(n: bigint): Buffer {
  const out = Buffer.alloc(32);
  let v = n;
  for (let i = 0; i < 32; i++) {
    out[i] = Number(v & 0xffn);
    v >>= 8n;
  }
  return out;
}

/** The usual Ed25519 clamp; TeamSpeak applies it to license block hashes and to ephemeral private keys. */
export function clamp(bytes: Uint8Array): Buffer {
  const out = Buffer.from(bytes.subarray(0, 32));
  out[0]! &= 0xf8;
  out[31]! &= 0x3f;
  out[31]! |= 0x40;
  return out;
}

/**
 * point · scalar with the scalar taken as is (it may exceed the group order). For a point without a
 * small-order component, reducing the scalar gives the same answer, so noble's constant-time multiply is
 * used; otherwise a plain double-and-add keeps the torsion part exactly as the reference clients do.
 */
export function multiply(point: EdwardsPoint, scalar: bigint): EdwardsPoint {
  if (point.isTorsionFree()) {
    const reduced = scalar % ORDER;
    return reduced === 0n ? Point.ZERO : point.multiply(reduced);
  }
  let result = Point.ZERO;
  for (let bit = BigInt(scalar.toString(2).length - 1); bit >= 0n; bit--) {
    result = result.double();
    if ((scalar >> bit) & 1n) result = result.add(point);
  }
  return result;
}

export function basePointTimes(scalar: bigint): EdwardsPoint {
  return multiply(Point.BASE, scalar);
}

export interface EphemeralKey {
  /** 32 clamped random bytes (a little-endian scalar). */
  privateKey: Buffer;
  publicKey: Buffer;
}

/** The client's `ek` for `clientek` (paper §3.2.3): random, clamped, public = B · priv. */
export function generateEphemeralKey(): EphemeralKey {
  const privateKey = clamp(randomBytes(32));
  return { privateKey, publicKey: encodePoint(basePointTimes(scalarFromLe(privateKey))) };
}

/** compress(serverKey · priv) with bit 255 of the private bytes cleared: the 32-byte shared point. */
export function sharedPoint(serverKey: EdwardsPoint, privateKey: Uint8Array): Buffer {
  const priv = Buffer.from(privateKey);
  priv[31]! &= 0x7f;
  return encodePoint(multiply(serverKey, scalarFromLe(priv)));
}

export const ED25519_ORDER = ORDER;
