/**
 * Kugou's KRC lyrics: a real encrypted KRC file (made from tests/fixtures/kugou/lyric.krc.txt by
 * running the decoder's steps in reverse — deflate, XOR with the key MakcRe/KuGouMusicApi publishes in
 * util/util.js `decodeLyrics`, the `krc1` header, base64) decoded and turned into LRC.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { encryptKrc, FIXTURE_LRC } from '../../../tests/helpers/kugou-api';
import { timeTag } from '../lrc';
import { decryptKrc, KRC_KEY, krcToLrc } from './krc';

const krcText = readFileSync(
  join(import.meta.dirname, '../../../tests/fixtures/kugou/lyric.krc.txt'),
  'utf8',
);

describe('KRC decoding', () => {
  it('uses the 16-byte key the public clients publish', () => {
    expect([...KRC_KEY]).toEqual([64, 71, 97, 119, 94, 50, 116, 71, 81, 54, 49, 45, 206, 210, 110, 105]);
  });

  it('decrypts a KRC file back to its text', () => {
    const file = encryptKrc(krcText);
    expect(Buffer.from(file, 'base64').subarray(0, 4).toString()).toBe('krc1');
    expect(decryptKrc(file)).toBe(krcText);
  });

  it('refuses what is not a KRC file', () => {
    expect(decryptKrc(Buffer.from('plain text lyrics').toString('base64'))).toBeUndefined();
    expect(decryptKrc(Buffer.from('krc1garbage-not-deflated').toString('base64'))).toBeUndefined();
  });
});

describe('KRC to LRC', () => {
  it('turns word-timed lines into [mm:ss.xx] lines with their translations', () => {
    expect(krcToLrc(krcText)).toBe(FIXTURE_LRC);
  });

  it('reads lyrics without a [language:] tag, and none without timed lines', () => {
    expect(krcToLrc('[ti:Song]\n[65432,1000]<0,500,0>Hel<500,500,0>lo')).toBe('[ti:Song]\n[01:05.43]Hello');
    expect(krcToLrc('[ti:Only tags]')).toBeUndefined();
  });

  it('writes times as minutes, seconds and hundredths', () => {
    expect(timeTag(0)).toBe('[00:00.00]');
    expect(timeTag(61_050)).toBe('[01:01.05]');
    expect(timeTag(3_599_999)).toBe('[59:59.99]');
  });
});
