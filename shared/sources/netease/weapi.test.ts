/**
 * weapi encryption checked independently: the AES layers by decrypting with node:crypto, the RSA step
 * against node's own raw RSA and plain BigInt arithmetic with NetEase's public key, and a published
 * known answer: the secret `FFFFFFFFFFFFFFFF` encrypts to the `encSecKey` that many public weapi clients
 * hard-code (Python, Java and PHP clients found next to Binaryify/NeteaseCloudMusicApi util/crypto.js).
 */
import { constants, createDecipheriv, createPublicKey, publicEncrypt } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { RSA_EXPONENT, RSA_MODULUS, randomSecret, weapi } from './weapi';

const PUBLISHED_SECRET = 'FFFFFFFFFFFFFFFF';
const PUBLISHED_ENC_SEC_KEY =
  '257348aecb5e556c066de214e531faadd1c55d814f9be95fd06d6bff9f4c7a41f831f6394d5a3fd2e3881736d94a02ca919d952872e7d0' +
  'a50ebfa1769a7a62d512f5f1ca21aec60bc3819a9c3ffca5eca9a0dba6d6f7249b06f5965ecfff3695b54e1c28f3f624750ed39e7de0' +
  '8fc8493242e26dbc4484a01c76f739e135637c';
const SECRET = 'abcdEFGH12345678';

function aesDecrypt(base64: string, key: string): string {
  const decipher = createDecipheriv('aes-128-cbc', Buffer.from(key), Buffer.from('0102030405060708'));
  return Buffer.concat([decipher.update(Buffer.from(base64, 'base64')), decipher.final()]).toString('utf8');
}

describe('weapi', () => {
  it('matches the published encSecKey for the secret FFFFFFFFFFFFFFFF', () => {
    expect(weapi({ ids: '[1]' }, PUBLISHED_SECRET).encSecKey).toBe(PUBLISHED_ENC_SEC_KEY);
  });

  it('encrypts the payload twice with AES-128-CBC: the secret outside, the preset key inside', () => {
    const payload = { s: '纸船 paper', type: 1, limit: 20, offset: 0, csrf_token: '' };
    const { params } = weapi(payload, SECRET);
    const inner = aesDecrypt(params, SECRET);
    expect(JSON.parse(aesDecrypt(inner, '0CoJUm6Qyw8W8jud'))).toEqual(payload);
  });

  it('RSA-encrypts the reversed secret exactly as raw RSA and BigInt arithmetic with the public key do', () => {
    const { encSecKey } = weapi({}, SECRET);
    const key = createPublicKey({
      key: {
        kty: 'RSA',
        n: Buffer.from(RSA_MODULUS.toString(16), 'hex').toString('base64url'),
        e: Buffer.from(RSA_EXPONENT.toString(16).padStart(6, '0'), 'hex').toString('base64url'),
      },
      format: 'jwk',
    });
    const block = Buffer.concat([Buffer.alloc(112), Buffer.from([...SECRET].reverse().join(''))]);
    const expected = publicEncrypt({ key, padding: constants.RSA_NO_PADDING }, block).toString('hex');
    expect(encSecKey).toBe(expected);
    // And as plain BigInt arithmetic: e = 65537 = 2^16 + 1, so m^e = (m squared 16 times) * m (mod n).
    const m = BigInt(`0x${Buffer.from([...SECRET].reverse().join('')).toString('hex')}`);
    let squared = m;
    for (let i = 0; i < 16; i++) squared = (squared * squared) % RSA_MODULUS;
    expect(BigInt(`0x${encSecKey}`)).toBe((squared * m) % RSA_MODULUS);
  });

  it('draws a fresh 16-character base62 secret for each request', () => {
    const secrets = new Set(Array.from({ length: 20 }, randomSecret));
    expect(secrets.size).toBe(20);
    for (const secret of secrets) expect(secret).toMatch(/^[A-Za-z0-9]{16}$/);
    const a = weapi({ id: 1 });
    const b = weapi({ id: 1 });
    expect(a.params).not.toBe(b.params);
    expect(a.encSecKey).toMatch(/^[0-9a-f]{256}$/);
  });
});
