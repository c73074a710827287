/**
 * Identity security level (paper §4.4): the number of zero bits at the start of
 * SHA-1(omega ‖ decimal counter), counted byte by byte and, inside the first non-zero byte, from its
 * least significant bit (not the usual MSB-first count).
 */
import { createHash } from 'node:crypto';

export function securityLevel(omega: string, counter: number): number {
  const hash = createHash('sha1').update(`${omega}${counter}`, 'ascii').digest();
  let level = 0;
  for (const byte of hash) {
    if (byte === 0) {
      level += 8;
      continue;
    }
    for (let bit = 0; bit < 8 && (byte & (1 << bit)) === 0; bit++) level++;
    break;
  }
  return level;
}

/** The first counter ≥ start whose level reaches `target`, or undefined if `limit` counters were tried. */
export function findCounter(omega: string, target: number, start: number, limit: number): number | undefined {
  for (let counter = start; counter < start + limit; counter++) {
    if (securityLevel(omega, counter) >= target) return counter;
  }
  return undefined;
}
