import { describe, expect, it } from 'vitest';
import { eaxDecrypt, eaxEncrypt } from './eax';
import { field, hex, vectorGroup } from './test-vectors';

describe('EAX (vectors: EAX paper via bcgit/bc-java EAXTest.java)', () => {
  for (const v of vectorGroup('eax')) {
    it(v.id, () => {
      const key = hex(field(v, 'key'));
      const nonce = hex(field(v, 'nonce'));
      const header = hex(field(v, 'header'));
      const sealed = eaxEncrypt(key, nonce, header, hex(field(v, 'plaintext')));
      expect(sealed.ciphertext.toString('hex')).toBe(field(v, 'ciphertext'));
      expect(sealed.tag.toString('hex')).toBe(field(v, 'tag16'));
      const opened = eaxDecrypt(key, nonce, header, sealed.ciphertext, hex(field(v, 'tag8')));
      expect(opened.ok && opened.value.toString('hex')).toBe(field(v, 'plaintext'));
    });
  }

  it('rejects a flipped tag bit', () => {
    const v = vectorGroup('eax')[2]!;
    const tag = hex(field(v, 'tag8'));
    tag[0]! ^= 1;
    const r = eaxDecrypt(
      hex(field(v, 'key')),
      hex(field(v, 'nonce')),
      hex(field(v, 'header')),
      hex(field(v, 'ciphertext')),
      tag,
    );
    expect(r.ok).toBe(false);
  });
});
