/**
 * The license chain sent in `initivexpand2` (paper §3.2.2.2) and the derivation of the server's
 * ephemeral public key from it (§3.2.2.4). The root key is a parameter: the default is TeamSpeak's, and a
 * test server can chain to its own.
 */
import { createHash } from 'node:crypto';
import { err, ok, type Result } from '../../shared/result';
import { clamp, decodePoint, type EdwardsPoint, multiply, scalarFromLe } from './ed25519';

/** TeamSpeak's license root public key (compressed Ed25519 point). */
export const TEAMSPEAK_LICENSE_ROOT = Buffer.from(
  'cd0de2aed46345509a7e3cfd8f68b3dc7555b29dccec73cd18750f993812408a',
  'hex',
);

/** Stored license dates count from 2013-01-01T00:00:00Z. */
export const LICENSE_EPOCH_SECONDS = 0x50e22700;

export const LicenseBlockType = {
  Intermediate: 0,
  Website: 1,
  Server: 2,
  Code: 3,
  Ts5Server: 8,
  Ephemeral: 32,
} as const;

/** Fixed part of every block: key kind, public key, block type, two dates. */
const BLOCK_FIXED_BYTES = 42;
/** RS accepts at most 8 blocks; real chains have 2 to 4. */
const MAX_BLOCKS = 8;

export interface LicenseBlock {
  type: number;
  publicKey: Buffer;
  notValidBefore: Date;
  notValidAfter: Date;
  issuer?: string;
  /** The bytes that are hashed for the derivation: the whole block without its key-kind byte. */
  hashed: Buffer;
}

function readCString(data: Buffer, start: number): Result<{ text: string; end: number }> {
  const nul = data.indexOf(0, start);
  if (nul < 0) return err('license string is not NUL-terminated');
  return ok({ text: data.toString('utf8', start, nul), end: nul + 1 });
}

/**
 * End of the content after the fixed part, and the issuer where the block type has one; undefined for a
 * block type this parser does not know.
 */
function parseContent(
  type: number,
  data: Buffer,
  start: number,
): Result<{ end: number; issuer?: string }> | undefined {
  switch (type) {
    case LicenseBlockType.Intermediate: {
      if (start + 4 > data.length) return err('intermediate block truncated');
      const s = readCString(data, start + 4);
      return s.ok ? ok({ end: s.value.end, issuer: s.value.text }) : s;
    }
    case LicenseBlockType.Website:
    case LicenseBlockType.Code: {
      const s = readCString(data, start);
      return s.ok ? ok({ end: s.value.end, issuer: s.value.text }) : s;
    }
    case LicenseBlockType.Server: {
      if (start + 5 > data.length) return err('server block truncated');
      const s = readCString(data, start + 5);
      return s.ok ? ok({ end: s.value.end, issuer: s.value.text }) : s;
    }
    case LicenseBlockType.Ts5Server: {
      if (start + 2 > data.length) return err('TS5 server block truncated');
      const count = data[start + 1]!;
      let pos = start + 2;
      for (let i = 0; i < count; i++) {
        const len = data[pos];
        if (len === undefined || len < 2 || pos + 1 + len > data.length) return err('TS5 property truncated');
        pos += 1 + len;
      }
      return ok({ end: pos });
    }
    case LicenseBlockType.Ephemeral:
      return ok({ end: start });
    default:
      return undefined;
  }
}

/** Said when a block of an unknown type cannot be stepped over; names the type so a user can report it. */
export function unknownBlockTypeMessage(type: number): string {
  return (
    `the server's license chain has a block of type ${type} that this bot cannot read; ` +
    'please report the type and the server version so it can be supported'
  );
}

/**
 * Parses the blocks from `pos` to the end of the data. An unknown block type has no length field, so its
 * end is searched from what follows (see firstEndOfUnknownBlock); its bytes then count in the key
 * derivation like any other block's. `memo` keeps that search quadratic at most.
 */
function parseBlocksFrom(
  data: Buffer,
  pos: number,
  memo: Map<number, Result<LicenseBlock[]>>,
): Result<LicenseBlock[]> {
  if (pos === data.length) return ok([]);
  const known = memo.get(pos);
  if (known) return known;
  const result = parseBlockAndRest(data, pos, memo);
  memo.set(pos, result);
  return result;
}

function parseBlockAndRest(
  data: Buffer,
  pos: number,
  memo: Map<number, Result<LicenseBlock[]>>,
): Result<LicenseBlock[]> {
  if (pos + BLOCK_FIXED_BYTES > data.length) return err('license block truncated');
  if (data[pos] !== 0) return err(`license key kind ${data[pos]} is not 0`);
  const type = data[pos + 33]!;
  const notValidBefore = new Date((data.readUInt32BE(pos + 34) + LICENSE_EPOCH_SECONDS) * 1000);
  const notValidAfter = new Date((data.readUInt32BE(pos + 38) + LICENSE_EPOCH_SECONDS) * 1000);
  if (notValidBefore > notValidAfter) return err('license block ends before it starts');
  const content = parseContent(type, data, pos + BLOCK_FIXED_BYTES);
  if (content && !content.ok) return content;
  let end: number;
  let rest: LicenseBlock[];
  if (content) {
    end = content.value.end;
    const after = parseBlocksFrom(data, end, memo);
    if (!after.ok) return after;
    rest = after.value;
  } else {
    const found = firstEndOfUnknownBlock(data, pos, { notValidBefore, notValidAfter }, memo);
    if (!found) return err(unknownBlockTypeMessage(type));
    ({ end, rest } = found);
  }
  const block: LicenseBlock = {
    type,
    publicKey: data.subarray(pos + 1, pos + 33),
    notValidBefore,
    notValidAfter,
    hashed: data.subarray(pos + 1, end),
  };
  if (content?.value.issuer !== undefined) block.issuer = content.value.issuer;
  return ok([block, ...rest]);
}

type Validity = Pick<LicenseBlock, 'notValidBefore' | 'notValidAfter'>;

/**
 * Where an unknown block ends: the first place from which the rest parses as a chain that looks real,
 * that is every key a curve point and every block's validity inside the one before it (servers keep to
 * this; tsclientlib refuses chains that do not). Without those checks the zero bytes that often open a
 * block's content start a "block" that parses. A later place would swallow real blocks: after any block
 * the ephemeral block alone is a chain too. No place at all means nothing tells the block's length.
 */
function firstEndOfUnknownBlock(
  data: Buffer,
  pos: number,
  validity: Validity,
  memo: Map<number, Result<LicenseBlock[]>>,
): { end: number; rest: LicenseBlock[] } | undefined {
  for (let next = pos + BLOCK_FIXED_BYTES; next + BLOCK_FIXED_BYTES <= data.length; next++) {
    const after = parseBlocksFrom(data, next, memo);
    if (after.ok && looksReal(validity, after.value)) return { end: next, rest: after.value };
  }
  return undefined;
}

function looksReal(outer: Validity, blocks: LicenseBlock[]): boolean {
  let previous = outer;
  for (const block of blocks) {
    const inside =
      block.notValidBefore >= previous.notValidBefore && block.notValidAfter <= previous.notValidAfter;
    if (!inside || !decodePoint(block.publicKey).ok) return false;
    previous = block;
  }
  return true;
}

export function parseLicense(data: Buffer): Result<LicenseBlock[]> {
  if (data.length < 1 || data[0] !== 1) return err('license version is not 1');
  if (data.length === 1) return err('license has no blocks');
  const blocks = parseBlocksFrom(data, 1, new Map());
  if (blocks.ok && blocks.value.length > MAX_BLOCKS) return err('license has too many blocks');
  return blocks;
}

/** The clamped first half of SHA-512 over the block: its scalar in the derivation. */
export function blockScalar(block: LicenseBlock): bigint {
  return scalarFromLe(clamp(createHash('sha512').update(block.hashed).digest()));
}

/** K = root; for each block K = P_block · scalar(block) + K. Returns every intermediate key. */
export function deriveLicenseKeys(blocks: LicenseBlock[], root: Uint8Array): Result<EdwardsPoint[]> {
  const rootPoint = decodePoint(root);
  if (!rootPoint.ok) return err('license root is not a valid point');
  const keys: EdwardsPoint[] = [];
  let key = rootPoint.value;
  for (const block of blocks) {
    const p = decodePoint(block.publicKey);
    if (!p.ok) return err('license block key is not a valid point');
    key = multiply(p.value, blockScalar(block)).add(key);
    keys.push(key);
  }
  return ok(keys);
}

/** The server's ephemeral public key: the last intermediate key of a parsed chain. */
export function serverKeyOf(blocks: LicenseBlock[], root: Uint8Array): Result<EdwardsPoint> {
  const keys = deriveLicenseKeys(blocks, root);
  if (!keys.ok) return keys;
  return ok(keys.value[keys.value.length - 1]!);
}

/** The server's ephemeral public key from the raw chain. */
export function deriveServerKey(license: Buffer, root: Uint8Array): Result<EdwardsPoint> {
  const blocks = parseLicense(license);
  return blocks.ok ? serverKeyOf(blocks.value, root) : blocks;
}

/** A root key given as base64 (e.g. TS3_LICENSE_ROOT for a test server's own root). */
export function parseLicenseRoot(base64: string): Result<Buffer> {
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.length !== 32 || !decodePoint(bytes).ok)
    return err('license root must be a base64 Ed25519 point');
  return ok(bytes);
}
