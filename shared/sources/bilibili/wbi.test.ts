/**
 * WBI signing against the worked example in SocialSisterYi/bilibili-API-collect
 * (docs/misc/sign/wbi.md): its keys, its mixin key, and its `w_rid` for `foo=114, bar=514,
 * zab=1919810` at `wts=1702204169`.
 */
import { describe, expect, it } from 'vitest';
import { keyFromUrl, mixinKey, signQuery } from './wbi';

const IMG_KEY = '7cd084941338484aae1ad9425b84077c';
const SUB_KEY = '4932caff0ff746eab6f01bf08b70ac45';
const MIXIN_KEY = 'ea1db124af3c7062474693fa704f4ff8';

describe('WBI signing', () => {
  it('takes the keys from the file names of the nav answer', () => {
    expect(keyFromUrl(`https://i0.hdslb.com/bfs/wbi/${IMG_KEY}.png`)).toBe(IMG_KEY);
    expect(keyFromUrl(`https://i0.hdslb.com/bfs/wbi/${SUB_KEY}.png`)).toBe(SUB_KEY);
  });

  it('mixes the two keys into the published mixin key', () => {
    expect(mixinKey(IMG_KEY, SUB_KEY)).toBe(MIXIN_KEY);
  });

  it('signs the published example to its published w_rid', () => {
    expect(signQuery({ foo: '114', bar: '514', zab: 1919810 }, MIXIN_KEY, 1702204169)).toBe(
      'bar=514&foo=114&wts=1702204169&zab=1919810&w_rid=8f6f2b5b3d485fe1886cec6a0be8c5d4',
    );
  });

  it("encodes with upper-case escapes and %20, and drops !'()* from values before signing", () => {
    const signed = new URLSearchParams(signQuery({ keyword: "one (two)! 'three'*" }, MIXIN_KEY, 1702204169));
    expect(signed.get('keyword')).toBe('one two three');
    const query = signQuery({ foo: 'one one four', bar: '五一四', baz: 1919810 }, MIXIN_KEY, 1);
    expect(query).toMatch(/^bar=%E4%BA%94%E4%B8%80%E5%9B%9B&baz=1919810&foo=one%20one%20four&wts=1&w_rid=/);
    expect(signQuery({ keyword: 'a(b)' }, MIXIN_KEY, 1)).toBe(signQuery({ keyword: 'ab' }, MIXIN_KEY, 1));
  });
});
