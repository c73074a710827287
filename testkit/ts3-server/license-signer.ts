/**
 * Builds a license chain `0x01 | Server block | Ephemeral block` under the test server's own root, and the
 * private scalar of the key the client will derive from it (paper §3.2.2; vectors
 * shared_secret/test_server_root_override). The real TeamSpeak root cannot be used: its private key is
 * unknown.
 */
import { randomBytes } from 'node:crypto';
import { basePointTimes, clamp, ED25519_ORDER, encodePoint, scalarFromLe } from '../../daemon/ts3/ed25519';
import { blockScalar, LICENSE_EPOCH_SECONDS, LicenseBlockType, parseLicense } from '../../daemon/ts3/license';

export interface ServerLicense {
  license: Buffer;
  /** The server's ephemeral private scalar: the derived public key is B times this. */
  privateScalar: bigint;
}

const HOUR = 3600;

/** Root public key (compressed point) for a 32-byte little-endian root secret. */
export function rootPublicKey(rootSecret: Uint8Array): Buffer {
  return encodePoint(basePointTimes(scalarFromLe(clamp(rootSecret))));
}

function block(publicKey: Buffer, type: number, from: number, to: number, content: Buffer): Buffer {
  const fixed = Buffer.alloc(42);
  publicKey.copy(fixed, 1);
  fixed[33] = type;
  fixed.writeUInt32BE(from - LICENSE_EPOCH_SECONDS, 34);
  fixed.writeUInt32BE(to - LICENSE_EPOCH_SECONDS, 38);
  return Buffer.concat([fixed, content]);
}

export function signServerLicense(
  rootSecret: Uint8Array,
  nowSeconds = Math.floor(Date.now() / 1000),
): ServerLicense {
  const serverKey = scalarFromLe(clamp(randomBytes(32)));
  const ephemeralKey = scalarFromLe(clamp(randomBytes(32)));
  // License type 7 (Default), 32 slots, issuer "Anonymous": what a free server license holds.
  const serverContent = Buffer.concat([Buffer.from([7, 0, 0, 0, 32]), Buffer.from('Anonymous\0', 'ascii')]);
  const license = Buffer.concat([
    Buffer.from([1]),
    block(
      encodePoint(basePointTimes(serverKey)),
      LicenseBlockType.Server,
      nowSeconds - 24 * HOUR,
      nowSeconds + 365 * 24 * HOUR,
      serverContent,
    ),
    block(
      encodePoint(basePointTimes(ephemeralKey)),
      LicenseBlockType.Ephemeral,
      nowSeconds - 6 * HOUR,
      nowSeconds + 6 * HOUR,
      Buffer.alloc(0),
    ),
  ]);
  const blocks = parseLicense(license);
  if (!blocks.ok) throw new Error(`built an unparsable license: ${blocks.error}`);
  const [server, ephemeral] = blocks.value as [(typeof blocks.value)[0], (typeof blocks.value)[0]];
  // Each block adds P_i · h_i to the key, so the private keys add up the same way (mod the group order).
  const privateScalar =
    (ephemeralKey * blockScalar(ephemeral) +
      serverKey * blockScalar(server) +
      scalarFromLe(clamp(rootSecret))) %
    ED25519_ORDER;
  return { license, privateScalar };
}
