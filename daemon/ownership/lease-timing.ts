/**
 * The numbers of bot ownership leases, and why they keep a bot from ever running on two daemons.
 *
 * A lease is judged by revisions, not by clock readings in its value: every renewal writes a new
 * revision, and a watcher counts a lease as expired once it has seen the same revision for `ttlMs` on
 * its OWN clock, measured from when it saw it. The watcher sees a write only after it was sent, so the
 * earliest anyone can claim is `ttlMs` after the owner SENT its last successful renewal, whatever the
 * clocks of the two machines read (only their rates matter, and those differ by parts per million).
 * A late or stale view only makes a watcher wait longer; a claim is a compare-and-set on the revision
 * it saw, so a claim made from a stale view fails instead of stealing a lease that was renewed.
 *
 * The owner counts from the same send time: once `ttlMs - safetyMarginMs` have passed since its last
 * successful renewal was sent, it stops the bot, without asking the store (it may be the one that is cut
 * off). Checked every `tickMs`, it has stopped by `ttlMs - safetyMarginMs + tickMs` = 5 s, a full second
 * before the earliest claim at 6 s: the margin covers stopping the voice session and a busy event loop.
 *
 * Renewing every 2 s gives two more tries (at 2 s and 4 s) before the 4.5 s deadline, so one lost or
 * slow write costs nothing. A dead daemon's bots are claimed at most `ttlMs + tickMs` = 6.5 s after its
 * last renewal (plus `claimGraceMs` when the least-loaded survivor does not step in), and reconnect
 * within the 10 s the deployment promises.
 *
 * Bucket TTL (max_age) is deliberately not used for expiry: it would judge by the server's clock,
 * purge silently (watchers are not told, nats-server < 2.11) and erase the last owner's record, which
 * says whether the bot was in a voice session and must be reconnected.
 */
export interface LeaseTiming {
  /** How often the keeper looks at its leases and the bucket. */
  tickMs: number;
  /** How often an owner renews each lease (and its daemon heartbeat). */
  renewIntervalMs: number;
  /** How long a revision may stay unchanged before watchers treat the lease as orphaned. */
  ttlMs: number;
  /** How much sooner than `ttlMs` an owner stops a bot it could not renew. */
  safetyMarginMs: number;
  /** How long an orphan is left to the daemon the placement picked before any daemon may claim it. */
  claimGraceMs: number;
  /** How often the bot list is read again from the database (a safety net for missed bot events). */
  rescanMs: number;
}

export const DEFAULT_LEASE_TIMING: LeaseTiming = {
  tickMs: 500,
  renewIntervalMs: 2000,
  ttlMs: 6000,
  safetyMarginMs: 1500,
  claimGraceMs: 2000,
  rescanMs: 30_000,
};
