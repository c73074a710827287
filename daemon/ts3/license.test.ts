import { describe, expect, it } from 'vitest';
import { encodePoint } from './ed25519';
import {
  blockScalar,
  deriveLicenseKeys,
  deriveServerKey,
  parseLicense,
  TEAMSPEAK_LICENSE_ROOT,
} from './license';
import { b64, field, hex, vector, vectorGroup } from './test-vectors';

interface BlockVector {
  type: number;
  length: number;
  public_key: string;
  not_valid_before: string;
  not_valid_after: string;
  sha512_first32_clamped: string;
  issuer?: string;
}

describe('license chain (vectors: ReSpeak/tsclientlib license.rs, HoneyBBQ/teamspeak-go tests, the TS6 beta chain from yichen11818/NeteaseTSBot)', () => {
  for (const v of vectorGroup('license')) {
    it(`parses and derives ${v.id}`, () => {
      const data = b64(field(v, 'license_b64'));
      const blocks = parseLicense(data);
      if (!blocks.ok) throw new Error(blocks.error);
      const expected = v.blocks as BlockVector[];
      expect(blocks.value.map((b) => b.type)).toEqual(expected.map((b) => b.type));
      blocks.value.forEach((block, i) => {
        const e = expected[i]!;
        expect(block.publicKey.toString('hex')).toBe(e.public_key);
        expect(block.hashed.length + 1).toBe(e.length);
        expect(block.notValidBefore.toISOString()).toBe(e.not_valid_before);
        expect(block.notValidAfter.toISOString()).toBe(e.not_valid_after);
        if (e.issuer !== undefined) expect(block.issuer).toBe(e.issuer);
        const scalar = blockScalar(block).toString(16).padStart(64, '0');
        expect(Buffer.from(scalar, 'hex').reverse().toString('hex')).toBe(e.sha512_first32_clamped);
      });
      const keys = deriveLicenseKeys(blocks.value, TEAMSPEAK_LICENSE_ROOT);
      if (!keys.ok) throw new Error(keys.error);
      expect(keys.value.map((k) => encodePoint(k).toString('hex'))).toEqual(v.intermediate_keys);
      const derived = deriveServerKey(data, TEAMSPEAK_LICENSE_ROOT);
      expect(derived.ok && encodePoint(derived.value).toString('hex')).toBe(field(v, 'derived_key'));
    });
  }

  it('derives the key of a captured initivexpand2 (signatures/initivexpand2_real_command)', () => {
    const v = vector('signatures', 'initivexpand2_real_command');
    const parsed = v.parsed as Record<string, string>;
    const derived = deriveServerKey(b64(parsed.l_b64!), TEAMSPEAK_LICENSE_ROOT);
    expect(derived.ok && encodePoint(derived.value).toString('hex')).toBe(field(v, 'derived_key'));
  });

  it('derives with an own root (shared_secret/test_server_root_override)', () => {
    const v = vector('shared_secret', 'test_server_root_override');
    const derived = deriveServerKey(hex(field(v, 'license')), hex(field(v, 'root_public')));
    expect(derived.ok && encodePoint(derived.value).toString('hex')).toBe(field(v, 'derived_server_key'));
  });

  it('rejects bad input as values', () => {
    expect(parseLicense(Buffer.from([2])).ok).toBe(false);
    expect(parseLicense(Buffer.from([1, 0, 1, 2])).ok).toBe(false);
    const good = b64(field(vectorGroup('license')[0]!, 'license_b64'));
    expect(parseLicense(good.subarray(0, good.length - 3)).ok).toBe(false);
    const badType = Buffer.from(good);
    badType[34] = 77;
    expect(parseLicense(badType).ok).toBe(false);
  });
});
