import { describe, expect, it } from 'vitest';
import { hash33, readPtuiCallback } from './qq-ptlogin';

describe('hash33', () => {
  it("matches the reference (L-1124/QQMusicApi utils/common.py) for a qrsig and a p_skey's g_tk", () => {
    const qrsig =
      'c775bd7feb19c8ee9241acb98a256a67f38a3d64677b3d7beb608a08c77af66a9fa496074c19f389f1a616eba36853cf98dbd7b9c4a4739b';
    // Python: h = 0; for c in s: h = (h << 5) + h + ord(c); h & 2147483647 — exact big integers.
    expect(hash33(qrsig)).toBe(1128024912);
    expect(hash33('', 5381)).toBe(5381);
    expect(hash33('a', 5381)).toBe(5381 * 33 + 97);
  });
});

describe('readPtuiCallback', () => {
  it('maps the codes to the four states and reads the signature of a confirmed login', () => {
    expect(readPtuiCallback("ptuiCB('66','0','','0','二维码未失效。', '')")).toEqual({
      ok: true,
      value: { status: 'waiting' },
    });
    expect(readPtuiCallback("ptuiCB('67','0','','0','二维码认证中。', '')")).toEqual({
      ok: true,
      value: { status: 'scanned' },
    });
    expect(readPtuiCallback("ptuiCB('68','0','','0','本次登录已被拒绝', '')")).toEqual({
      ok: true,
      value: { status: 'expired' },
    });
    expect(
      readPtuiCallback(
        "ptuiCB('0','0','https://ssl.ptlogin2.graph.qq.com/check_sig?pttype=1&uin=42&service=ptqrlogin&ptsigx=abc&s_url=x','0','登录成功！', 'N')",
      ),
    ).toEqual({ ok: true, value: { status: 'confirmed', uin: '42', ptsigx: 'abc' } });
  });

  it('answers an unknown code or shape as an error sentence', () => {
    expect(readPtuiCallback("ptuiCB('10005','0','','0','系统繁忙', '')")).toEqual({
      ok: false,
      error: 'QQ login refused the QR login (code 10005: 系统繁忙)',
    });
    expect(readPtuiCallback('<html>').ok).toBe(false);
    expect(readPtuiCallback("ptuiCB('0','0','not a url','0','', '')").ok).toBe(false);
  });
});
