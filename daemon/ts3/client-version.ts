/**
 * What the client reports as its version. The server checks `client_version_sign`, an Ed25519 signature
 * by TeamSpeak over platform + version that nobody else can make, so only published triples work
 * (tsdeclarations Versions.csv). This one is tsclientlib's and honeybbq's default.
 */
export interface ClientVersion {
  version: string;
  platform: string;
  sign: string;
}

export const DEFAULT_CLIENT_VERSION: ClientVersion = {
  version: '3.?.? [Build: 5680278000]',
  platform: 'Windows',
  sign: 'DX5NIYLvfJEUjuIbCidnoeozxIDRRkpq3I9vVMBmE9L2qnekOoBzSenkzsg2lC9CMv8K5hkEzhr2TYUYSwUXCg==',
};

/** TeamSpeak's key for `client_version_sign` (TS3AudioBot TsCrypt.EdCheck). */
export const VERSION_SIGN_PUBLIC_KEY = 'UrN1jX0dBE1vulTNLCoYwrVpfITyo+NBuq/twbf9hLw=';

/** tsclientlib's default hardware id (two 32-hex strings, as the official client sends). */
export const DEFAULT_HWID = '923f136fb1e22ae6ce95e60255529c00,d13231b1bc33edfecfb9169cc7a63bcc';
