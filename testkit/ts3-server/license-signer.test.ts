import { describe, expect, it } from 'vitest';
import { basePointTimes, encodePoint } from '../../daemon/ts3/ed25519';
import { deriveServerKey } from '../../daemon/ts3/license';
import { field, hex, vector } from '../../daemon/ts3/test-vectors';
import { rootPublicKey, signServerLicense } from './license-signer';

describe('test-server license signer', () => {
  it('root public key from the secret (shared_secret/test_server_root_override)', () => {
    const v = vector('shared_secret', 'test_server_root_override');
    expect(rootPublicKey(hex(field(v, 'root_private'))).toString('hex')).toBe(field(v, 'root_public'));
  });

  it('builds a chain whose derived key matches its private scalar', () => {
    const secret = Buffer.alloc(32, 7);
    const { license, privateScalar } = signServerLicense(secret);
    const derived = deriveServerKey(license, rootPublicKey(secret));
    if (!derived.ok) throw new Error(derived.error);
    expect(encodePoint(derived.value).equals(encodePoint(basePointTimes(privateScalar)))).toBe(true);
  });
});
