/**
 * One daemon's picture of the lease bucket, fed by the store's watch, and the judgments made from it
 * (see lease-timing.ts for why expiry is judged this way):
 *   - a revision is dated by when THIS daemon first saw it; seeing it again does not make it younger,
 *     and an older revision (a slow read) never replaces a newer one;
 *   - a liveness lease is live while its revision is younger than the TTL; an expired one is still
 *     there until somebody deletes it at the revision seen expiring (the keeper does, by compare-and-set);
 *   - a bot is owned while its record names an owner whose liveness lease is still in the bucket, expired
 *     or not: only its deletion, which the compare-and-set makes safe, frees the owner's bots. It is an
 *     orphan when it has no record, was handed over (owner null), or its owner's lease is gone;
 *   - a daemon's load is the records naming its live, not draining, liveness lease.
 */
import type { PreviousOwner } from './bot-ownership';
import { type BotLease, type Liveness, parseLeaseKey, readBotLease, readLiveness } from './lease-records';
import type { StoredLease } from './lease-store';

export interface Observed<V> {
  /** Null where the key was deleted. */
  value: V | null;
  revision: number;
  /** When this daemon first saw this revision (its own clock). */
  seenAt: number;
}

interface ObservedLiveness extends Observed<Liveness> {
  daemonId: string;
  /** Its bots in a voice session at its last renewal, kept once it is deleted: for whoever takes them. */
  active: ReadonlySet<string>;
}

export class LeaseView {
  private readonly leases = new Map<string, Observed<BotLease>>();
  /** Liveness leases by session. */
  private readonly sessions = new Map<string, ObservedLiveness>();

  constructor(private readonly ttlMs: number) {}

  /** Takes in one change; answers whether it was news (a revision newer than the one known). */
  apply(change: StoredLease, now: number): boolean {
    const key = parseLeaseKey(change.key);
    if (!key) return false;
    if (key.kind === 'bot') {
      if (!newer(this.leases.get(key.botId), change.revision)) return false;
      const value = change.value === null ? null : readBotLease(change.value);
      this.leases.set(key.botId, { value, revision: change.revision, seenAt: now });
      return true;
    }
    const known = this.sessions.get(key.session);
    if (!newer(known, change.revision)) return false;
    const value = change.value === null ? null : readLiveness(change.value);
    const active = value ? new Set(value.active) : (known?.active ?? new Set<string>());
    this.sessions.set(key.session, {
      daemonId: key.daemonId,
      value,
      revision: change.revision,
      seenAt: now,
      active,
    });
    return true;
  }

  lease(botId: string): Observed<BotLease> | undefined {
    return this.leases.get(botId);
  }

  /**
   * What the bot's last owner left for the next: whether it was in a voice session (the record says so
   * when it was handed over; the owner's last renewal, when it died). Undefined when it has no record.
   */
  previousOwner(botId: string): PreviousOwner | undefined {
    const record = this.leases.get(botId)?.value;
    if (!record) return undefined;
    const owner = record.session === undefined ? undefined : this.sessions.get(record.session);
    return { active: record.owner && owner ? owner.active.has(botId) : record.active };
  }

  /** Whether nobody owns the bot: no record, handed over, or its owner's liveness lease is gone. */
  isOrphan(botId: string, now: number): boolean {
    const lease = this.leases.get(botId);
    if (!lease?.value?.owner) return true;
    // A record of the release that renewed every bot's lease lives by its own revision.
    if (lease.value.session === undefined) return this.expired(lease, now);
    return !this.sessions.get(lease.value.session)?.value;
  }

  /** Live, not draining daemons (by session) and how many bots each owns. */
  liveLoads(now: number): Map<string, number> {
    const loads = new Map<string, number>();
    for (const [session, liveness] of this.sessions)
      if (liveness.value && !liveness.value.draining && !this.expired(liveness, now)) loads.set(session, 0);
    for (const lease of this.leases.values()) {
      const session = lease.value?.owner ? lease.value.session : undefined;
      if (session !== undefined && loads.has(session)) loads.set(session, loads.get(session)! + 1);
    }
    return loads;
  }

  /** Whether a daemon other than `session` is live and not draining: one that could take bots. */
  othersLive(session: string, now: number): boolean {
    return [...this.liveLoads(now).keys()].some((other) => other !== session);
  }

  /** Ids of the daemons whose liveness lease is live (draining ones included). */
  liveDaemons(now: number): string[] {
    const ids = new Set<string>();
    for (const liveness of this.sessions.values())
      if (liveness.value && !this.expired(liveness, now)) ids.add(liveness.daemonId);
    return [...ids].sort();
  }

  /** Who owns each bot whose owner is live, by daemon id: what the bench and the tests report. */
  owners(now: number): Map<string, string[]> {
    const owners = new Map<string, string[]>();
    for (const [botId, lease] of this.leases) {
      const owner = lease.value?.owner;
      const session = lease.value?.session;
      const liveness = session === undefined ? undefined : this.sessions.get(session);
      if (!owner || !liveness?.value || this.expired(liveness, now)) continue;
      owners.set(owner, [...(owners.get(owner) ?? []), botId]);
    }
    return owners;
  }

  /** Records nobody needs any more, with their revisions: orphans of bots not in `bots`. */
  leasesOfGoneBots(now: number, bots: ReadonlySet<string>): Map<string, number> {
    const gone = new Map<string, number>();
    for (const [botId, lease] of this.leases)
      if (lease.value && !bots.has(botId) && this.isOrphan(botId, now)) gone.set(botId, lease.revision);
    return gone;
  }

  /** Liveness leases that were not renewed within the TTL, with their keys' parts and revisions. */
  expiredSessions(now: number): { daemonId: string; session: string; revision: number }[] {
    const expired = [];
    for (const [session, liveness] of this.sessions)
      if (liveness.value && this.expired(liveness, now))
        expired.push({ daemonId: liveness.daemonId, session, revision: liveness.revision });
    return expired;
  }

  private expired(observed: Observed<unknown>, now: number): boolean {
    return now - observed.seenAt >= this.ttlMs;
  }
}

function newer(known: Observed<unknown> | undefined, revision: number): boolean {
  return !known || known.revision < revision;
}
