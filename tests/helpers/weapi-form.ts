/**
 * Reads a NetEase weapi form the way NetEase does: exactly `params` (base64) and `encSecKey` (256 hex
 * digits). The payload's AES key is RSA-encrypted for NetEase, so it can only be read when the test
 * file pins weapi's random secret (tests/helpers/weapi-pin.ts; the same secret is passed here).
 */
import { createDecipheriv } from 'node:crypto';
import { IV, PRESET_KEY } from '../../shared/sources/netease/weapi';

export const isWeapiForm = (form: URLSearchParams) =>
  [...form.keys()].sort().join() === 'encSecKey,params' &&
  /^[A-Za-z0-9+/]+={0,2}$/.test(form.get('params') ?? '') &&
  /^[0-9a-f]{256}$/.test(form.get('encSecKey') ?? '');

function aesDecrypt(base64: string, key: string): string {
  const decipher = createDecipheriv('aes-128-cbc', Buffer.from(key), Buffer.from(IV));
  return Buffer.concat([decipher.update(Buffer.from(base64, 'base64')), decipher.final()]).toString('utf8');
}

/** Undoes both AES layers (the pinned secret outside, the preset key inside): the request's payload. */
export function readWeapiPayload(form: URLSearchParams, secret: string): Record<string, unknown> {
  return JSON.parse(aesDecrypt(aesDecrypt(form.get('params') ?? '', secret), PRESET_KEY));
}
