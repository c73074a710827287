/** The Init1 RSA puzzle (paper §2): y = x^(2^level) mod n, all 64-byte big-endian numbers. */

export const PUZZLE_NUMBER_BYTES = 64;
/** TS3AudioBot refuses levels above this; real servers ask for a few thousand squarings. */
export const MAX_PUZZLE_LEVEL = 1_000_000;

export function bigIntFromBytes(bytes: Uint8Array): bigint {
  return bytes.length === 0 ? 0n : BigInt(`0x${Buffer.from(bytes).toString('hex')}`);
}

export function bigIntToBytes(n: bigint, size: number): Buffer {
  const hex = n.toString(16).padStart(size * 2, '0');
  return Buffer.from(hex.slice(hex.length - size * 2), 'hex');
}

/** Repeated squaring; `level` must already be checked against MAX_PUZZLE_LEVEL. */
export function solvePuzzle(x: Uint8Array, n: Uint8Array, level: number): Buffer {
  const modulus = bigIntFromBytes(n);
  let y = bigIntFromBytes(x) % modulus;
  for (let i = 0; i < level; i++) y = (y * y) % modulus;
  return bigIntToBytes(y, PUZZLE_NUMBER_BYTES);
}
