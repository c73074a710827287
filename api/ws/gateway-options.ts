/**
 * How the /ws gateway sweeps its sockets for sessions that ended (api/ws/gateway.ts). Apart from the
 * gateway so the app's dependencies (api/env.ts) can carry them without importing it.
 */
export interface GatewayOptions {
  /** How often the sockets are swept: how late a socket whose session ended may close. */
  sessionSweepMs?: number;
  /** The clock a session's end is compared with. */
  now?: () => number;
}
