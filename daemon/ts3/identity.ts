/**
 * A TeamSpeak identity (paper §4): a P-256 key pair plus the hashcash counter ("key offset") that sets
 * its security level. Imports and exports libtomcrypt DER, the official client's obfuscated export and a
 * plain storage form. Nothing here logs key material.
 */
import { createECDH, createHash, createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { err, ok, type Result } from '../../shared/result';
import { DerTag, derElement, derSequence, derUnsignedInteger, integerBytes, parseDerSequence } from './der';
import { securityLevel } from './security-level';

const CURVE = 'prime256v1';
/** libtomcrypt's key-size INTEGER (32 bytes for P-256). */
const KEY_SIZE = Buffer.from([32]);
/** libtomcrypt's flags BIT STRING: 0x00 public, 0x80 private (x, y, d), 0xC0 (6 unused bits) AB's private-only form. */
const PUBLIC_FLAGS = Buffer.from([0x07, 0x00]);
const PRIVATE_FLAGS = Buffer.from([0x07, 0x80]);
/** Static XOR key of the official client's identity export; only the first 100 bytes are used. */
const OBFUSCATION_KEY = Buffer.from(
  'b9dfaa7bee6ac57ac7b65f1094a1c155e747327bc2fe5d51c512023fe54a280201004e90ad1daaae1075d53b7d571c30e063b5a62a4a017bb394833aa0983e6e',
  'ascii',
);
const OBFUSCATED_BYTES = 100;
const PLAIN_PREFIX = 'ts3id1';

const b64url = (b: Uint8Array) => Buffer.from(b).toString('base64url');

export class Identity {
  /** Uncompressed public point coordinates, 32 bytes each. */
  readonly x: Buffer;
  readonly y: Buffer;
  /** base64 of the libtomcrypt public DER: the `omega` the server sees. */
  readonly omega: string;
  /** base64(SHA-1(omega text)): the unique id servers show. */
  readonly uid: string;
  private readonly d: Buffer;
  private readonly key: KeyObject;

  /** The hashcash counter; goes into `client_key_offset`. */
  constructor(
    privateScalar: Uint8Array,
    public readonly counter = 0,
  ) {
    const ecdh = createECDH(CURVE);
    ecdh.setPrivateKey(privateScalar);
    const pub = ecdh.getPublicKey();
    this.d = Buffer.from(ecdh.getPrivateKey());
    this.x = pub.subarray(1, 33);
    this.y = pub.subarray(33, 65);
    this.key = createPrivateKey({
      format: 'jwk',
      key: { kty: 'EC', crv: 'P-256', d: b64url(pad32(this.d)), x: b64url(this.x), y: b64url(this.y) },
    });
    this.omega = publicDer(this.x, this.y).toString('base64');
    this.uid = uidOf(this.omega);
  }

  static generate(): Identity {
    const ecdh = createECDH(CURVE);
    ecdh.generateKeys();
    return new Identity(ecdh.getPrivateKey());
  }

  withCounter(counter: number): Identity {
    return new Identity(this.d, counter);
  }

  get securityLevel(): number {
    return securityLevel(this.omega, this.counter);
  }

  /** The key object for ECDSA signatures (`clientek` proof). */
  get privateKey(): KeyObject {
    return this.key;
  }

  /** libtomcrypt private DER (BIT STRING 0x80, 32, x, y, d) as base64. */
  exportPrivateDer(): string {
    return derSequence([
      derElement(DerTag.BitString, PRIVATE_FLAGS),
      derUnsignedInteger(KEY_SIZE),
      derUnsignedInteger(this.x),
      derUnsignedInteger(this.y),
      derUnsignedInteger(this.d),
    ]).toString('base64');
  }

  /** The official client's export form `<counter>V<base64>` (paper §4.5). */
  exportOfficial(): string {
    const data = Buffer.from(this.exportPrivateDer(), 'ascii');
    xorInPlace(data, OBFUSCATION_KEY, Math.min(OBFUSCATED_BYTES, data.length));
    xorInPlace(data, sha1OfTail(data), 20);
    return `${this.counter}V${data.toString('base64')}`;
  }

  /** A plain form for our own storage: `ts3id1:<counter>:<base64 d>`. */
  exportPlain(): string {
    return `${PLAIN_PREFIX}:${this.counter}:${pad32(this.d).toString('base64')}`;
  }
}

function pad32(b: Buffer): Buffer {
  return b.length >= 32 ? b : Buffer.concat([Buffer.alloc(32 - b.length), b]);
}

function publicDer(x: Buffer, y: Buffer): Buffer {
  return derSequence([
    derElement(DerTag.BitString, PUBLIC_FLAGS),
    derUnsignedInteger(KEY_SIZE),
    derUnsignedInteger(x),
    derUnsignedInteger(y),
  ]);
}

export function uidOf(omega: string): string {
  return createHash('sha1').update(omega, 'ascii').digest('base64');
}

function xorInPlace(data: Buffer, key: Buffer, length: number): void {
  for (let i = 0; i < length && i < key.length; i++) data[i]! ^= key[i]!;
}

/** SHA-1 over data[20 .. first NUL at or after 20, or the end]. */
function sha1OfTail(data: Buffer): Buffer {
  const nul = data.indexOf(0, 20);
  return createHash('sha1')
    .update(data.subarray(20, nul < 0 ? data.length : nul))
    .digest();
}

/** Public point (x, y) from libtomcrypt public DER (`omega`). */
export function parseOmega(omega: string): Result<KeyObject> {
  const children = parseDerSequence(Buffer.from(omega, 'base64'));
  if (!children.ok) return children;
  const [, , xEl, yEl] = children.value;
  if (!xEl || !yEl) return err('omega has too few fields');
  const x = integerBytes(xEl, 32);
  const y = integerBytes(yEl, 32);
  if (!x.ok) return x;
  if (!y.ok) return y;
  try {
    return ok(
      createPublicKey({
        format: 'jwk',
        key: { kty: 'EC', crv: 'P-256', x: b64url(x.value), y: b64url(y.value) },
      }),
    );
  } catch {
    return err('omega is not a point on P-256');
  }
}

/**
 * The private scalar from any libtomcrypt private form: the full one (flags 0x80: 32, x, y, d) or
 * TS3AudioBot's short one (flags 0xC0: 32, d).
 */
export function importPrivateDer(base64: string, counter = 0): Result<Identity> {
  const children = parseDerSequence(Buffer.from(base64, 'base64'));
  if (!children.ok) return children;
  const d = children.value.length >= 5 ? children.value[4] : children.value[2];
  if (!d) return err('private key DER has too few fields');
  const scalar = integerBytes(d, 32);
  if (!scalar.ok) return scalar;
  return makeIdentity(scalar.value, counter);
}

function makeIdentity(d: Buffer, counter: number): Result<Identity> {
  try {
    return ok(new Identity(d, counter));
  } catch {
    return err('not a valid P-256 private key');
  }
}

export function importOfficial(text: string): Result<Identity> {
  const match = /^(\d+)V([A-Za-z0-9+/=]+)$/.exec(text.trim());
  if (!match) return err('not an identity export of the form <counter>V<base64>');
  const data = Buffer.from(match[2]!, 'base64');
  if (data.length < 20) return err('identity export too short');
  xorInPlace(data, sha1OfTail(data), 20);
  xorInPlace(data, OBFUSCATION_KEY, Math.min(OBFUSCATED_BYTES, data.length));
  return importPrivateDer(data.toString('ascii'), Number(match[1]));
}

export function importPlain(text: string): Result<Identity> {
  const [prefix, counter, d] = text.split(':');
  if (prefix !== PLAIN_PREFIX || !counter || !d || !/^\d+$/.test(counter))
    return err('not a ts3id1 identity');
  return makeIdentity(Buffer.from(d, 'base64'), Number(counter));
}
