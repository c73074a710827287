import { describe, expect, it } from 'vitest';
import { basePointTimes, encodePoint } from '../../daemon/ts3/ed25519';
import { deriveServerKey, parseLicense } from '../../daemon/ts3/license';
import { b64, field, hex, vector } from '../../daemon/ts3/test-vectors';
import { LICENSE_SHAPES, rootPublicKey, signServerLicense } from './license-signer';

describe('test-server license signer', () => {
  it('root public key from the secret (shared_secret/test_server_root_override)', () => {
    const v = vector('shared_secret', 'test_server_root_override');
    expect(rootPublicKey(hex(field(v, 'root_private'))).toString('hex')).toBe(field(v, 'root_public'));
  });

  for (const shape of LICENSE_SHAPES) {
    it(`builds a ${shape} chain whose derived key matches its private scalar`, () => {
      const secret = Buffer.alloc(32, 7);
      const { license, privateScalar } = signServerLicense(secret, shape);
      const derived = deriveServerKey(license, rootPublicKey(secret));
      if (!derived.ok) throw new Error(derived.error);
      expect(encodePoint(derived.value).equals(encodePoint(basePointTimes(privateScalar)))).toBe(true);
    });
  }

  it('builds the ts6 chain in the shape of the TeamSpeak 6 beta chain', () => {
    const published = parseLicense(
      b64(field(vector('license', 'license_parse_ts6_license_chain'), 'license_b64')),
    );
    const built = parseLicense(signServerLicense(Buffer.alloc(32, 7), 'ts6').license);
    if (!published.ok || !built.ok) throw new Error('unparsable chain');
    expect(built.value.map((b) => b.type)).toEqual(published.value.map((b) => b.type));
    // The TS5 server block's header: license type 7, three properties, the first two with ids 1 and 2.
    const header = (b: (typeof built.value)[0]) => [b.hashed[41], b.hashed[42], b.hashed[44], b.hashed[51]];
    expect(header(built.value[1]!)).toEqual(header(published.value[1]!));
  });
});
