/**
 * One daemon's picture of the lease bucket, fed by the store's watch, and the judgments made from it
 * (see lease-timing.ts for why expiry is judged this way):
 *   - a revision is dated by when THIS daemon first saw it; seeing it again does not make it younger,
 *     and an older revision (a slow read) never replaces a newer one;
 *   - a bot lease is live while its revision is younger than the TTL and it names an owner; otherwise
 *     the bot is an orphan (no key, deleted, handed over, or expired);
 *   - a daemon is live while its heartbeat is younger than the TTL, unless one of its leases expired
 *     (then it is dead or cut off, whatever its heartbeat still says), and its load is its live leases.
 */
import { type BotLease, parseLeaseKey, readBotLease } from './lease-records';
import type { StoredLease } from './lease-store';

export interface Observed<V> {
  /** Null where the key was deleted. */
  value: V | null;
  revision: number;
  /** When this daemon first saw this revision (its own clock). */
  seenAt: number;
}

export class LeaseView {
  private readonly leases = new Map<string, Observed<BotLease>>();
  private readonly heartbeats = new Map<string, Observed<true>>();

  constructor(private readonly ttlMs: number) {}

  /** Takes in one change; answers whether it was news (a revision newer than the one known). */
  apply(change: StoredLease, now: number): boolean {
    const key = parseLeaseKey(change.key);
    if (!key) return false;
    if (key.kind === 'bot') {
      const value = change.value === null ? null : readBotLease(change.value);
      return record(this.leases, key.botId, value, change.revision, now);
    }
    return record(this.heartbeats, key.daemonId, change.value === null ? null : true, change.revision, now);
  }

  lease(botId: string): Observed<BotLease> | undefined {
    return this.leases.get(botId);
  }

  /** Whether nobody live owns the bot: no key, deleted, handed over, or not renewed within the TTL. */
  isOrphan(botId: string, now: number): boolean {
    const lease = this.leases.get(botId);
    return !lease?.value?.owner || this.expired(lease, now);
  }

  /** Live daemons and how many live leases each holds. */
  liveLoads(now: number): Map<string, number> {
    const unreachable = new Set<string>();
    for (const lease of this.leases.values())
      if (lease.value?.owner && this.expired(lease, now)) unreachable.add(lease.value.owner);
    const loads = new Map<string, number>();
    for (const [daemonId, heartbeat] of this.heartbeats)
      if (heartbeat.value && !this.expired(heartbeat, now) && !unreachable.has(daemonId))
        loads.set(daemonId, 0);
    for (const lease of this.leases.values()) {
      const owner = lease.value?.owner;
      if (owner && !this.expired(lease, now) && loads.has(owner)) loads.set(owner, loads.get(owner)! + 1);
    }
    return loads;
  }

  /** Who holds a live lease on each bot, by daemon: what the bench and the tests report. */
  owners(now: number): Map<string, string[]> {
    const owners = new Map<string, string[]>();
    for (const [botId, lease] of this.leases) {
      const owner = lease.value?.owner;
      if (!owner || this.expired(lease, now)) continue;
      owners.set(owner, [...(owners.get(owner) ?? []), botId]);
    }
    return owners;
  }

  /** Leases nobody needs any more, with their revisions: expired or handed over, of bots not in `bots`. */
  leasesOfGoneBots(now: number, bots: ReadonlySet<string>): Map<string, number> {
    const gone = new Map<string, number>();
    for (const [botId, lease] of this.leases)
      if (lease.value && !bots.has(botId) && (!lease.value.owner || this.expired(lease, now)))
        gone.set(botId, lease.revision);
    return gone;
  }

  /** Heartbeats that stopped beating, with their revisions. */
  expiredHeartbeats(now: number): Map<string, number> {
    const expired = new Map<string, number>();
    for (const [daemonId, heartbeat] of this.heartbeats)
      if (heartbeat.value && this.expired(heartbeat, now)) expired.set(daemonId, heartbeat.revision);
    return expired;
  }

  private expired(observed: Observed<unknown>, now: number): boolean {
    return now - observed.seenAt >= this.ttlMs;
  }
}

function record<V>(
  map: Map<string, Observed<V>>,
  id: string,
  value: V | null,
  revision: number,
  now: number,
) {
  const known = map.get(id);
  if (known && known.revision >= revision) return false;
  map.set(id, { value, revision, seenAt: now });
  return true;
}
