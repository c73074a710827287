import { describe, expect, it } from 'vitest';
import { qrcDecrypt, qrcTripleDes } from './qrc-crypt';

describe('qrcDecrypt', () => {
  it("decrypts what the reference's own code encrypted (L-1124/QQMusicApi algorithms/tripledes.py)", () => {
    // Made with the reference's tripledes_key_setup(key, ENCRYPT) over zlib.compress of the text below,
    // zero-padded to whole blocks: a vector from outside this code, so the test can fail.
    const fromReference =
      '32dabb4c5e9846fa8af2136e7ced8f1752fde38f964dbdd6b7d48420d8efd923f3317700d3f411172e2eb8c3a1135cfd041e67adc9384646';
    expect(qrcDecrypt(fromReference)).toBe('[00:01.00]Harbour lights\n[00:03.50]We sail home\n');
  });

  it('decrypts block by block as the reference does (its decrypt of bytes 0..15)', () => {
    const block = Buffer.from(Array.from({ length: 16 }, (_, i) => i));
    expect(qrcTripleDes(block, 'decrypt').toString('hex')).toBe('60be2354cdfdf5f2cf8721e8cce8fb7d');
    expect(qrcTripleDes(qrcTripleDes(block, 'encrypt'), 'decrypt')).toEqual(block);
  });

  it('answers undefined for text that is not an encrypted lyric, and keeps empty empty', () => {
    expect(qrcDecrypt('')).toBe('');
    expect(qrcDecrypt('not hex at all')).toBeUndefined();
    expect(qrcDecrypt('00112233445566778899aabbccddeeff')).toBeUndefined();
  });
});
