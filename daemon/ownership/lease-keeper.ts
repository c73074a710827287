/**
 * Bot ownership when daemons share a NATS cluster: one lease per bot in the lease store, claimed by
 * compare-and-set, renewed while this daemon lives, and given up the moment it cannot be renewed in
 * time (lease-timing.ts says why that keeps a bot from ever running on two daemons).
 *
 * Every `tickMs` the keeper
 *   1. stops the bots whose last successful renewal was sent `ttlMs - safetyMarginMs` ago or more,
 *   2. renews the leases that are `renewIntervalMs` old, and its own heartbeat,
 *   3. claims orphans: those the placement gives to this daemon at once, the others once they have
 *      been orphans for `claimGraceMs` and only while this daemon holds no more than its fair share,
 *   4. deletes the heartbeats of daemons that stopped beating, and now and then reads the bot list
 *      again and deletes the leases of bots that are gone.
 * Watching the bucket, it also claims at once when a lease is deleted or handed over, and lets a bot
 * go at once when its lease changes under it (another claim, or a deletion).
 *
 * A claim or a renewal counts from when it was SENT. A renewal that meets a conflict asks the store:
 * if the lease still carries this daemon's claim id, its own earlier write landed (the answer was
 * lost) and the keeper carries on from that revision; any other claim means the bot is lost.
 */
import { randomUUID } from 'node:crypto';
import { logger } from '../../shared/logger';
import type { BotOwnership, OwnershipHooks, PreviousOwner } from './bot-ownership';
import { type Clock, systemClock } from './clock';
import { botLeaseKey, daemonKey, HEARTBEAT_VALUE, parseLeaseKey, writeBotLease } from './lease-records';
import type { LeaseStore, LeaseWatch, StoredLease } from './lease-store';
import { DEFAULT_LEASE_TIMING, type LeaseTiming } from './lease-timing';
import { LeaseView } from './lease-view';
import { assignOrphans, fairShare } from './placement';

const log = logger('daemon.leases');

export interface LeaseKeeperOptions {
  store: LeaseStore;
  daemonId: string;
  hooks: OwnershipHooks;
  clock?: Clock;
  timing?: LeaseTiming;
}

interface Held {
  claim: string;
  revision: number;
  /** When the claim or the last successful renewal was sent. */
  renewedAt: number;
  renewing: Promise<void> | undefined;
  /** Released for a hand-over: renewals stop, the lease is about to be freed. */
  leaving: boolean;
}

type KeeperState = 'idle' | 'running' | 'leaving' | 'stopped';

export class LeaseKeeper implements BotOwnership {
  private readonly store: LeaseStore;
  private readonly daemonId: string;
  private readonly hooks: OwnershipHooks;
  private readonly clock: Clock;
  private readonly timing: LeaseTiming;
  private readonly view: LeaseView;
  private readonly held = new Map<string, Held>();
  private readonly claiming = new Set<string>();
  private readonly orphanSince = new Map<string, number>();
  /** Heartbeats of stopped daemons being deleted. */
  private readonly burying = new Set<string>();
  private knownBots = new Set<string>();
  /** Bot events that arrive while the bot list is read again, replayed onto the fresh list. */
  private eventsDuringScan: { botId: string; created: boolean }[] | undefined;
  private watch: LeaseWatch | undefined;
  private stopTicking: (() => void) | undefined;
  private lastBeatAt = Number.NEGATIVE_INFINITY;
  private nextScanAt = 0;
  private planPending = false;
  private state: KeeperState = 'idle';

  constructor(options: LeaseKeeperOptions) {
    this.store = options.store;
    this.daemonId = options.daemonId;
    this.hooks = options.hooks;
    this.clock = options.clock ?? systemClock;
    this.timing = options.timing ?? DEFAULT_LEASE_TIMING;
    this.view = new LeaseView(this.timing.ttlMs);
  }

  async start(): Promise<void> {
    // Merged, not replaced: a bot created while the list is read has already been added.
    for (const botId of await this.hooks.listBots()) this.knownBots.add(botId);
    this.nextScanAt = this.clock.now() + this.timing.rescanMs;
    this.watch = await this.store.watch((change) => this.onChange(change));
    await this.beat();
    this.state = 'running';
    this.stopTicking = this.clock.every(this.timing.tickMs, () => this.tick());
    await this.claimOrphans();
    log.info({ daemonId: this.daemonId, bots: this.held.size }, 'holding bot leases');
  }

  botCreated(botId: string): void {
    this.knownBots.add(botId);
    this.eventsDuringScan?.push({ botId, created: true });
    this.planSoon();
  }

  async botRemoved(botId: string): Promise<void> {
    this.knownBots.delete(botId);
    this.eventsDuringScan?.push({ botId, created: false });
    this.orphanSince.delete(botId);
    const held = this.held.get(botId);
    if (!held) return;
    this.held.delete(botId);
    await held.renewing;
    await this.store.delete(botLeaseKey(botId), held.revision);
  }

  async handOver(): Promise<void> {
    if (this.state === 'running') {
      this.state = 'leaving';
      // Gone from the live set before its bots come free, so nobody plans to give them back to it. The
      // bots leave their servers meanwhile: with NATS unreachable the delete takes its full timeout.
      const leftLiveSet = this.store.delete(daemonKey(this.daemonId));
      await Promise.all([...this.held.keys()].map((botId) => this.handOverBot(botId, leftLiveSet)));
    }
    this.state = 'stopped';
    this.stopTicking?.();
    this.watch?.stop();
  }

  private tick(): void {
    const now = this.clock.now();
    for (const [botId, held] of this.held) {
      if (now - held.renewedAt >= this.timing.ttlMs - this.timing.safetyMarginMs)
        this.lose(botId, 'its lease could not be renewed in time');
      else if (!held.renewing && !held.leaving && now - held.renewedAt >= this.timing.renewIntervalMs)
        held.renewing = this.renew(botId, held).finally(() => (held.renewing = undefined));
    }
    if (this.state !== 'running') return;
    if (now - this.lastBeatAt >= this.timing.renewIntervalMs) void this.beat();
    this.buryStoppedHeartbeats(now);
    void this.claimOrphans();
    if (now >= this.nextScanAt) void this.rescan();
  }

  private onChange(change: StoredLease): void {
    const now = this.clock.now();
    if (!this.view.apply(change, now)) return;
    const key = parseLeaseKey(change.key);
    if (key?.kind !== 'bot') return;
    const held = this.held.get(key.botId);
    if (held && this.view.lease(key.botId)?.value?.claim !== held.claim)
      this.lose(key.botId, 'its lease was taken or deleted');
    if (this.view.isOrphan(key.botId, now)) this.planSoon();
  }

  /**
   * Plans once for everything that arrives in one go (a burst of bot events, a dead daemon's leases
   * expiring together), so every daemon plans from the same picture and their plans agree.
   */
  private planSoon(): void {
    if (this.planPending || this.state !== 'running') return;
    this.planPending = true;
    setImmediate(() => {
      this.planPending = false;
      if (this.state === 'running') void this.claimOrphans();
    });
  }

  private async beat(): Promise<void> {
    this.lastBeatAt = this.clock.now();
    const beat = await this.store.put(daemonKey(this.daemonId), HEARTBEAT_VALUE);
    if (!beat.ok) log.warn('could not renew the daemon heartbeat');
  }

  private async renew(botId: string, held: Held): Promise<void> {
    const sentAt = this.clock.now();
    const key = botLeaseKey(botId);
    const lease = writeBotLease({
      owner: this.daemonId,
      claim: held.claim,
      active: this.hooks.isActive(botId),
    });
    const renewed = await this.store.update(key, lease, held.revision);
    if (this.held.get(botId) !== held) return;
    if (renewed.ok) {
      held.revision = renewed.value;
      held.renewedAt = sentAt;
      return;
    }
    // Unavailable: tried again next tick, and the deadline stops the bot if that lasts.
    if (renewed.error === 'unavailable') return;
    const current = await this.store.get(key);
    if (!current.ok || this.held.get(botId) !== held) return;
    if (!current.value) return this.lose(botId, 'its lease is gone');
    this.view.apply(current.value, this.clock.now());
    const seen = this.view.lease(botId);
    if (seen?.value?.claim !== held.claim) return this.lose(botId, 'its lease was taken');
    // Still this daemon's claim: an earlier renewal landed though its answer was lost. Its send time is
    // unknown, so `renewedAt` stays; the next tick renews again from the revision that landed.
    held.revision = Math.max(held.revision, seen.revision);
  }

  private claimOrphans(): Promise<void> {
    const now = this.clock.now();
    const orphans = new Set(
      [...this.knownBots].filter(
        (botId) => !this.held.has(botId) && !this.claiming.has(botId) && this.view.isOrphan(botId, now),
      ),
    );
    for (const botId of this.orphanSince.keys()) if (!orphans.has(botId)) this.orphanSince.delete(botId);
    if (orphans.size === 0) return Promise.resolve();
    for (const botId of orphans) if (!this.orphanSince.has(botId)) this.orphanSince.set(botId, now);

    let load = this.held.size + this.claiming.size;
    // This daemon always counts, with the load it knows exactly (claims on their way included).
    const loads = this.view.liveLoads(now).set(this.daemonId, load);
    const plan = assignOrphans([...orphans], loads);
    const share = fairShare(this.knownBots.size, loads.size);
    const claims: Promise<void>[] = [];
    for (const botId of [...orphans].sort()) {
      const placedHere = plan.get(botId) === this.daemonId;
      const waitedLongEnough = now - this.orphanSince.get(botId)! >= this.timing.claimGraceMs;
      if (!placedHere && !(waitedLongEnough && load <= share)) continue;
      load++;
      claims.push(this.claim(botId));
    }
    return Promise.all(claims).then(() => undefined);
  }

  private async claim(botId: string): Promise<void> {
    const observed = this.view.lease(botId);
    const claim = randomUUID();
    const key = botLeaseKey(botId);
    const lease = writeBotLease({ owner: this.daemonId, claim, active: observed?.value?.active ?? false });
    this.claiming.add(botId);
    const sentAt = this.clock.now();
    const claimed = observed
      ? await this.store.update(key, lease, observed.revision)
      : await this.store.create(key, lease);
    // Unanswered, the claim may still have landed: the store tells, by the claim id it holds now.
    const revision = claimed.ok ? claimed.value : await this.landed(botId, claim);
    this.claiming.delete(botId);
    if (revision === undefined) return;
    if (this.state !== 'running' || !this.knownBots.has(botId)) {
      await this.store.delete(key, revision);
      return;
    }
    const held: Held = {
      claim,
      revision,
      renewedAt: sentAt,
      renewing: undefined,
      leaving: false,
    };
    this.held.set(botId, held);
    log.info({ bot: botId, from: observed?.value?.owner ?? null }, 'claimed a bot');
    const previous: PreviousOwner | undefined = observed?.value
      ? { active: observed.value.active }
      : undefined;
    const owned = await this.hooks.own(botId, previous).catch((error: unknown) => {
      log.warn({ err: error, bot: botId }, 'could not take the bot on');
      return false;
    });
    if (owned || this.held.get(botId) !== held) return;
    // The bot is gone from the database: forget it, or its freed lease would be claimed again.
    this.knownBots.delete(botId);
    this.held.delete(botId);
    await held.renewing;
    await this.store.delete(key, held.revision);
  }

  /**
   * After a claim failed or went unanswered: reads the lease, so the next plan starts from the truth,
   * and answers its revision if it carries `claim` (the write landed after all).
   */
  private async landed(botId: string, claim: string): Promise<number | undefined> {
    const current = await this.store.get(botLeaseKey(botId));
    if (current.ok && current.value) this.view.apply(current.value, this.clock.now());
    const seen = this.view.lease(botId);
    return seen?.value?.claim === claim ? seen.revision : undefined;
  }

  private lose(botId: string, why: string): void {
    if (!this.held.delete(botId)) return;
    log.warn({ bot: botId, why }, 'lost a bot; stopping it');
    void this.hooks.release(botId, 'lost');
  }

  private async handOverBot(botId: string, leftLiveSet: Promise<unknown>): Promise<void> {
    const held = this.held.get(botId);
    if (!held) return;
    const active = this.hooks.isActive(botId);
    // Renewals go on while the bot disconnects, so nobody may claim it before it has left the server.
    await this.hooks.release(botId, 'handover');
    if (this.held.get(botId) !== held) return;
    held.leaving = true;
    await Promise.all([held.renewing, leftLiveSet]);
    this.held.delete(botId);
    const freed = writeBotLease({ owner: null, claim: held.claim, active });
    const result = await this.store.update(botLeaseKey(botId), freed, held.revision);
    if (!result.ok) log.warn({ bot: botId }, 'could not hand the lease over; it expires instead');
  }

  private async rescan(): Promise<void> {
    if (this.eventsDuringScan) return;
    this.nextScanAt = this.clock.now() + this.timing.rescanMs;
    const events: { botId: string; created: boolean }[] = [];
    this.eventsDuringScan = events;
    try {
      const listed = new Set(await this.hooks.listBots());
      for (const { botId, created } of events)
        if (created) listed.add(botId);
        else listed.delete(botId);
      this.knownBots = listed;
    } catch (error) {
      log.warn({ err: error }, 'could not read the bot list');
      return;
    } finally {
      this.eventsDuringScan = undefined;
    }
    await Promise.all(
      [...this.held.keys()].filter((id) => !this.knownBots.has(id)).map((id) => this.dropDeleted(id)),
    );
    await this.collectGarbage();
  }

  /** A bot deleted while this daemon missed the event. */
  private async dropDeleted(botId: string): Promise<void> {
    const held = this.held.get(botId);
    if (!held) return;
    await this.hooks.release(botId, 'lost');
    await this.botRemoved(botId);
  }

  private async collectGarbage(): Promise<void> {
    const gone = this.view.leasesOfGoneBots(this.clock.now(), this.knownBots);
    await Promise.all([...gone].map(([botId, revision]) => this.store.delete(botLeaseKey(botId), revision)));
  }

  /**
   * Deletes the heartbeats of daemons that stopped beating, at the revision seen (a daemon that beats
   * again has moved past it). Otherwise a daemon starting soon after would see them as new, count
   * the dead as live for a whole TTL and leave bots waiting for them.
   */
  private buryStoppedHeartbeats(now: number): void {
    for (const [daemonId, revision] of this.view.expiredHeartbeats(now)) {
      if (daemonId === this.daemonId || this.burying.has(daemonId)) continue;
      this.burying.add(daemonId);
      void this.store.delete(daemonKey(daemonId), revision).finally(() => this.burying.delete(daemonId));
    }
  }
}
