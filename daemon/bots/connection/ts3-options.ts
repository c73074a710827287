/**
 * Voice-connection options every bot of a daemon shares. `TS3_LICENSE_ROOT` replaces TeamSpeak's
 * license root key (a test server signs its own chain); a malformed value fails the daemon's start
 * instead of every bot's handshake later.
 */
import { parseLicenseRoot } from '../../ts3';
import type { ReconnectBackoff } from './reconnect-backoff';

export interface Ts3Options {
  licenseRoot?: Uint8Array;
  /** Silence after which a connection counts as lost (the client's default is 30 s). */
  lossTimeoutMs?: number;
  backoff?: ReconnectBackoff;
}

/** The options for the configured license root (`TS3_LICENSE_ROOT`; unset: TeamSpeak's own). */
export function ts3OptionsFor(root: string | undefined): Ts3Options {
  if (!root) return {};
  const parsed = parseLicenseRoot(root);
  if (!parsed.ok) throw new Error(`TS3_LICENSE_ROOT: ${parsed.error}`);
  return { licenseRoot: parsed.value };
}
