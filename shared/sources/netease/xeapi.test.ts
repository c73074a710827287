import { generateKeyPairSync } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { KeyStateSchema, openedSession, xeapi } from './xeapi';

const serverKey = generateKeyPairSync('x25519')
  .publicKey.export({ format: 'der', type: 'spki' })
  .subarray(-32)
  .toString('base64');
const state = KeyStateSchema.parse({ publicKey: serverKey, version: 7, sk: 'session-text' });

describe('xeapi', () => {
  it('seals a request under the server key, and says so instead of throwing when it admits no agreement', () => {
    expect(xeapi({ ids: '[1]' }, state, undefined)).toMatchObject({
      ok: true,
      value: { B: expect.any(String) },
    });
    // All zeros is a low-order X25519 point: the key derivation fails on it.
    const lowOrder = { ...state, publicKey: Buffer.alloc(32).toString('base64') };
    expect(xeapi({ ids: '[1]' }, lowOrder, undefined)).toEqual({
      ok: false,
      error: 'its request key cannot be used',
    });
  });

  it('takes only a raw 32-byte server key, and only a session key that can be an AES key', () => {
    expect(KeyStateSchema.safeParse({ ...state, publicKey: 'c2hvcnQ=' }).success).toBe(false);
    expect(openedSession('s1', 'k'.repeat(16))).toEqual({ id: 's1', key: 'k'.repeat(16) });
    for (const key of ['short', 'k'.repeat(17), '', null]) expect(openedSession('s1', key)).toBeUndefined();
    expect(openedSession(null, 'k'.repeat(16))).toBeUndefined();
  });
});
