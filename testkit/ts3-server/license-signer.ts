/**
 * Builds a license chain under the test server's own root, and the private scalar of the key the client
 * will derive from it (paper §3.2.2; vectors shared_secret/test_server_root_override). The real TeamSpeak
 * root cannot be used: its private key is unknown. Two shapes: a TeamSpeak 3 server's
 * `Server | Ephemeral`, and a TeamSpeak 6 beta server's `Intermediate | TS5 server | Ephemeral` (the
 * shape of vector license/license_parse_ts6_license_chain).
 */
import { randomBytes } from 'node:crypto';
import { basePointTimes, clamp, ED25519_ORDER, encodePoint, scalarFromLe } from '../../daemon/ts3/ed25519';
import { blockScalar, LICENSE_EPOCH_SECONDS, LicenseBlockType, parseLicense } from '../../daemon/ts3/license';

export interface ServerLicense {
  license: Buffer;
  /** The server's ephemeral private scalar: the derived public key is B times this. */
  privateScalar: bigint;
}

/** Which server's chain the test server presents. */
export const LICENSE_SHAPES = ['ts3', 'ts6'] as const;
export type LicenseShape = (typeof LICENSE_SHAPES)[number];

const HOUR = 3600;
const DAY = 24 * HOUR;

/** Root public key (compressed point) for a 32-byte little-endian root secret. */
export function rootPublicKey(rootSecret: Uint8Array): Buffer {
  return encodePoint(basePointTimes(scalarFromLe(clamp(rootSecret))));
}

interface BlockSpec {
  type: number;
  /** Validity around now, in seconds; each lies inside the one before, as real chains do. */
  from: number;
  to: number;
  content: Buffer;
}

const cString = (text: string): Buffer => Buffer.from(`${text}\0`, 'ascii');
const u32 = (value: number): Buffer => {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(value);
  return b;
};

/** A TS5 server property: `len | id | data type | value`, len counting id, type and value. */
function property(id: number, dataType: number, value: Buffer): Buffer {
  return Buffer.concat([Buffer.from([value.length + 2, id, dataType]), value]);
}

function blockSpecs(shape: LicenseShape): BlockSpec[] {
  const ephemeral = {
    type: LicenseBlockType.Ephemeral,
    from: -6 * HOUR,
    to: 6 * HOUR,
    content: Buffer.alloc(0),
  };
  if (shape === 'ts3') {
    // License type 7 (Default), 32 slots, issuer "Anonymous": what a free server license holds.
    const server = Buffer.concat([Buffer.from([7]), u32(32), cString('Anonymous')]);
    return [{ type: LicenseBlockType.Server, from: -DAY, to: 365 * DAY, content: server }, ephemeral];
  }
  // As in the TS6 beta chain: an intermediate block whose unknown u32 is 0x104, then a TS5 server block
  // (license type 7) with properties 1 (u32 32), 2 (issuer) and 3 (u32).
  const intermediate = Buffer.concat([u32(0x104), cString('TS3 test server')]);
  const properties = [
    property(1, 1, u32(32)),
    property(2, 0, cString('TS3 test server')),
    property(3, 1, u32(6)),
  ];
  const ts5Server = Buffer.concat([Buffer.from([7, properties.length]), ...properties]);
  return [
    { type: LicenseBlockType.Intermediate, from: -30 * DAY, to: 400 * DAY, content: intermediate },
    { type: LicenseBlockType.Ts5Server, from: -DAY, to: 365 * DAY, content: ts5Server },
    ephemeral,
  ];
}

function blockBytes(publicKey: Buffer, spec: BlockSpec, nowSeconds: number): Buffer {
  const fixed = Buffer.alloc(42);
  publicKey.copy(fixed, 1);
  fixed[33] = spec.type;
  fixed.writeUInt32BE(nowSeconds + spec.from - LICENSE_EPOCH_SECONDS, 34);
  fixed.writeUInt32BE(nowSeconds + spec.to - LICENSE_EPOCH_SECONDS, 38);
  return Buffer.concat([fixed, spec.content]);
}

export function signServerLicense(
  rootSecret: Uint8Array,
  shape: LicenseShape = 'ts3',
  nowSeconds = Math.floor(Date.now() / 1000),
): ServerLicense {
  const specs = blockSpecs(shape);
  const keys = specs.map(() => scalarFromLe(clamp(randomBytes(32))));
  const license = Buffer.concat([
    Buffer.from([1]),
    ...specs.map((spec, i) => blockBytes(encodePoint(basePointTimes(keys[i]!)), spec, nowSeconds)),
  ]);
  const blocks = parseLicense(license);
  if (!blocks.ok) throw new Error(`built an unparsable license: ${blocks.error}`);
  // Each block adds P_i · h_i to the key, so the private keys add up the same way (mod the group order).
  const privateScalar =
    blocks.value.reduce(
      (sum, block, i) => sum + keys[i]! * blockScalar(block),
      scalarFromLe(clamp(rootSecret)),
    ) % ED25519_ORDER;
  return { license, privateScalar };
}
