import { describe, expect, it } from 'vitest';
import { encodePoint } from './ed25519';
import {
  blockScalar,
  deriveLicenseKeys,
  deriveServerKey,
  parseLicense,
  TEAMSPEAK_LICENSE_ROOT,
  unknownBlockTypeMessage,
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
  });
});

describe('license blocks of an unknown type', () => {
  const ts6 = vector('license', 'license_parse_ts6_license_chain');
  const typeByteAt = (v: Record<string, unknown>, index: number): number =>
    (v.blocks as { offset: number }[])[index]!.offset + 33;
  const withType = (v: Record<string, unknown>, types: Record<number, number>): Buffer => {
    const data = b64(field(v, 'license_b64'));
    for (const [index, type] of Object.entries(types)) data[typeByteAt(v, Number(index))] = type;
    return data;
  };

  const blockLengths = (v: Record<string, unknown>): number[] =>
    (v.blocks as { length: number }[]).map((b) => b.length);

  it('steps over one before the ephemeral block, keeping its bytes in the derivation', () => {
    const data = withType(ts6, { 1: 6 });
    const blocks = parseLicense(data);
    if (!blocks.ok) throw new Error(blocks.error);
    expect(blocks.value.map((b) => b.type)).toEqual([0, 6, 32]);
    expect(blocks.value.map((b) => b.hashed.length + 1)).toEqual(blockLengths(ts6));
    expect(blocks.value[1]!.hashed).toEqual(data.subarray(71, 154));
    const keys = deriveLicenseKeys(blocks.value, TEAMSPEAK_LICENSE_ROOT);
    if (!keys.ok) throw new Error(keys.error);
    const hexKeys = keys.value.map((k) => encodePoint(k).toString('hex'));
    // The type byte is hashed, so only the key before the changed block stays the published one.
    expect(hexKeys[0]).toBe((ts6.intermediate_keys as string[])[0]);
    expect(hexKeys[1]).not.toBe((ts6.intermediate_keys as string[])[1]);
  });

  it('steps over unknown blocks followed by several blocks, or by another unknown one', () => {
    const ts5 = vector('license', 'license_parse_ts5_server_license_long');
    for (const types of [{ 1: 77 }, { 0: 6, 1: 77 }] as Record<number, number>[]) {
      const blocks = parseLicense(withType(ts5, types));
      if (!blocks.ok) throw new Error(blocks.error);
      expect(blocks.value.map((b) => b.hashed.length + 1)).toEqual(blockLengths(ts5));
    }
  });

  it('finds the true end of every non-last block of every vector when its type is unknown', () => {
    for (const v of vectorGroup('license')) {
      for (let index = 0; index < blockLengths(v).length - 1; index++) {
        const blocks = parseLicense(withType(v, { [index]: 6 }));
        expect(blocks.ok && blocks.value.map((b) => b.hashed.length + 1), `${v.id} block ${index}`).toEqual(
          blockLengths(v),
        );
      }
    }
  });

  it('fails naming the type when nothing follows to fix its end', () => {
    const parsed = parseLicense(withType(ts6, { 2: 6 }));
    expect(parsed).toEqual({ ok: false, error: unknownBlockTypeMessage(6) });
    expect(unknownBlockTypeMessage(6)).toMatch(/block of type 6 .*please report/);
  });

  it('fails naming the type when no end leaves a chain that parses', () => {
    const data = withType(ts6, { 1: 200 });
    expect(parseLicense(data.subarray(0, data.length - 3))).toEqual({
      ok: false,
      error: unknownBlockTypeMessage(200),
    });
  });
});
