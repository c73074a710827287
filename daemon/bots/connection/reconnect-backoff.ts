/**
 * How long a bot waits before each reconnect attempt after an unexpected disconnect: doubling from
 * `baseMs` up to `maxMs`, so a server restart is picked up within seconds while a long outage costs
 * one attempt every half minute instead of a flood.
 */
export const RECONNECT_BASE_MS = 1000;
export const RECONNECT_MAX_MS = 30_000;

export interface ReconnectBackoff {
  baseMs: number;
  maxMs: number;
}

export const DEFAULT_RECONNECT_BACKOFF: ReconnectBackoff = {
  baseMs: RECONNECT_BASE_MS,
  maxMs: RECONNECT_MAX_MS,
};

/** Delay before attempt `attempt` (0 for the first after the disconnect). */
export function reconnectDelayMs(
  attempt: number,
  backoff: ReconnectBackoff = DEFAULT_RECONNECT_BACKOFF,
): number {
  return Math.min(backoff.maxMs, backoff.baseMs * 2 ** Math.max(0, attempt));
}
