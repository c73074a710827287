import { describe, expect, it } from 'vitest';
import { decompress } from './quicklz';
import { field, hex, vectorGroup } from './test-vectors';

describe('QuickLZ level 1 (vectors group quicklz: ReSpeak/quicklz tests and computed)', () => {
  for (const v of vectorGroup('quicklz')) {
    it(v.id, () => {
      const out = decompress(hex(field(v, 'compressed')));
      if (!out.ok) throw new Error(out.error);
      expect(out.value.length).toBe(v.decompressed_length);
      if (typeof v.decompressed === 'string') expect(out.value.toString('hex')).toBe(v.decompressed);
      if (typeof v.decompressed_text === 'string')
        expect(out.value.toString('utf8')).toBe(v.decompressed_text);
    });
  }

  it('rejects truncated and corrupt input without throwing', () => {
    for (const v of vectorGroup('quicklz')) {
      const data = hex(field(v, 'compressed'));
      expect(decompress(data.subarray(0, data.length - 1)).ok).toBe(false);
    }
    expect(decompress(Buffer.alloc(0)).ok).toBe(false);
    expect(decompress(Buffer.from([0x47, 9, 0, 0, 0, 200, 0, 0, 0])).ok).toBe(false);
  });
});
