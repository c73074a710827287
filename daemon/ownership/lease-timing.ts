/**
 * The numbers of bot ownership, and why they keep a bot from ever running on two daemons.
 *
 * Each daemon holds one liveness lease; a bot's record names the liveness lease (the session) of its
 * owner and is written only when the bot changes hands. A bot is owned while that liveness lease is in
 * the bucket; it comes free when its owner hands it over (owner null) or when the lease is deleted.
 *
 * A liveness lease is judged by revisions, not by clock readings in its value: every renewal writes a
 * new revision, and a watcher counts the lease as expired once it has seen the same revision for `ttlMs`
 * on its OWN clock, measured from when it saw it. The watcher sees a write only after it was sent, so
 * the earliest anyone counts it expired is `ttlMs` after the owner SENT its last successful renewal,
 * whatever the clocks of the two machines read (only their rates matter, and those differ by parts per
 * million). An expired lease does not free anything by itself: the watcher deletes it by compare-and-set
 * at the revision it saw expire. If the owner renewed meanwhile (the watcher's view lagged), the
 * deletion fails and the bots stay. Only a deletion that succeeded frees the bots, and their takeover is
 * again a compare-and-set, on each bot's record at the revision seen, so of two daemons that both
 * judged a bot free exactly one wins it.
 *
 * The owner counts from the same send time: once `ttlMs - safetyMarginMs` have passed since its last
 * confirmed renewal was sent, it stops EVERY bot it owns, without asking the store (it may be the one
 * that is cut off), and starts over under a new session. Checked every `tickMs`, it has stopped by
 * `ttlMs - safetyMarginMs + tickMs` = 5 s, a full second before the earliest deletion at 6 s: the
 * margin covers stopping the voice sessions and a busy event loop. A renewal that meets a conflict
 * means the lease was deleted (the owner is the only one that writes it), or its own earlier write
 * landed though the answer was lost; the store tells which.
 *
 * Renewing every 2 s gives two more tries (at 2 s and 4 s) before the 4.5 s deadline, so one lost or
 * slow write costs nothing. A dead daemon's lease is deleted at most `ttlMs + tickMs` = 6.5 s after its
 * last renewal and its bots claimed right then (plus `claimGraceMs` when the survivor the placement
 * picked does not step in), and they reconnect within the 10 s the deployment promises.
 *
 * Bucket TTL (max_age) is deliberately not used for expiry: it would judge by the server's clock and
 * purge silently (watchers are not told, nats-server < 2.11), and a record purged with its lease would
 * lose whether the bot was in a voice session and must be reconnected.
 */
export interface LeaseTiming {
  /** How often the keeper looks at its lease and the bucket. */
  tickMs: number;
  /** How often a daemon renews its liveness lease. */
  renewIntervalMs: number;
  /** How long a revision may stay unchanged before watchers treat the liveness lease as expired. */
  ttlMs: number;
  /** How much sooner than `ttlMs` an owner stops its bots when it could not renew. */
  safetyMarginMs: number;
  /** How long an orphan is left to the daemon the placement picked before any daemon may claim it. */
  claimGraceMs: number;
  /** How often the bot list is read again from the database (a safety net for missed bot events). */
  rescanMs: number;
  /** How long a bot handed over is waited for to find a new owner before the next one goes. */
  handOverWaitMs: number;
  /**
   * How long a daemon that stops hands its bots over one at a time; the rest then go all at once, so
   * the stop fits the shutdown's budget for the bots (shared/shutdown.ts).
   */
  shutdownDrainMs: number;
}

export const DEFAULT_LEASE_TIMING: LeaseTiming = {
  tickMs: 500,
  renewIntervalMs: 2000,
  ttlMs: 6000,
  safetyMarginMs: 1500,
  claimGraceMs: 2000,
  rescanMs: 30_000,
  handOverWaitMs: 2000,
  shutdownDrainMs: 3000,
};
