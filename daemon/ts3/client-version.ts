/**
 * What the client reports as its version (the table of signed triples is shared/domain/client-versions.ts)
 * and the automatic choice. A TeamSpeak 6 server is reported to drop a clientinit that names a 3.x client,
 * while TeamSpeak 3 servers take tsclientlib's 3.?.? placeholder; the license chain, which arrives before
 * clientinit is sent, tells the two apart: only TeamSpeak 5/6 servers have a TS5 server block (type 8).
 */
import { CLIENT_VERSIONS, type ClientVersion } from '../../shared/domain/client-versions';
import { LicenseBlockType } from './license';

export type { ClientVersion };

export const DEFAULT_CLIENT_VERSION: ClientVersion = CLIENT_VERSIONS['3.x-windows'];
/** The newest published triple, for servers of the TeamSpeak 5/6 generation. */
export const TS6_CLIENT_VERSION: ClientVersion = CLIENT_VERSIONS['6.0.0-beta2-windows'];

/** The version to report to a server whose license chain has these block types. */
export function automaticClientVersion(licenseBlockTypes: readonly number[]): ClientVersion {
  return licenseBlockTypes.includes(LicenseBlockType.Ts5Server) ? TS6_CLIENT_VERSION : DEFAULT_CLIENT_VERSION;
}

/** TeamSpeak's key for `client_version_sign` (TS3AudioBot TsCrypt.EdCheck). */
export const VERSION_SIGN_PUBLIC_KEY = 'UrN1jX0dBE1vulTNLCoYwrVpfITyo+NBuq/twbf9hLw=';

/** tsclientlib's default hardware id (two 32-hex strings, as the official client sends). */
export const DEFAULT_HWID = '923f136fb1e22ae6ce95e60255529c00,d13231b1bc33edfecfb9169cc7a63bcc';
