/**
 * Bot ownership when daemons share a NATS cluster. Each daemon process holds one liveness lease
 * (`daemon.<id>.<session>`), renewed every `renewIntervalMs`; a bot's record (`bot.<id>`) names the
 * liveness session that owns it and is written only when the bot changes hands. So lease traffic grows
 * with daemons, not bots. lease-timing.ts says why a bot never runs on two daemons.
 *
 * Every `tickMs` the keeper
 *   1. stops every bot it owns once its last confirmed liveness renewal was sent `ttlMs - safetyMarginMs`
 *      ago or more, and starts again under a new session (its old one is dead to it from then on),
 *   2. renews its liveness lease when it is `renewIntervalMs` old,
 *   3. deletes the liveness leases of daemons that stopped renewing, each at the revision it saw expire
 *      (compare-and-set: a daemon that renewed meanwhile keeps its lease, and its bots),
 *   4. claims orphans (bots without a record, handed over, or whose owner's liveness lease is gone): those
 *      the placement gives to this daemon at once, the others once they have been orphans for
 *      `claimGraceMs` and only while this daemon holds no more than its fair share,
 *   5. rebalances: while it holds two bots more than the least-loaded live daemon, it hands one over
 *      (one at a time), the way a stopping daemon hands its bots over,
 *   6. now and then reads the bot list again and deletes the records of bots that are gone.
 * Watching the bucket, it also claims at once when a bot comes free, and lets a bot go at once when its
 * record changes under it (another claim, or a deletion).
 *
 * A hand-over (rebalance, drain, stop) is the restart's: the bot saves its queue and position and leaves
 * its server, then its record is written with `owner: null` and whether it was in a voice session; the
 * next owner claims it, reconnects it and resumes it at that position.
 */
import { randomUUID } from 'node:crypto';
import { logger } from '../../shared/logger';
import type { BotOwnership, DrainStart, OwnershipHooks } from './bot-ownership';
import { type Clock, systemClock } from './clock';
import { botLeaseKey, livenessKey, parseLeaseKey, writeBotLease, writeLiveness } from './lease-records';
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
}

/**
 * - running: claims, rebalances;
 * - draining: hands its bots over one at a time and claims none (its liveness lease says so);
 * - leaving: stopping, its bots handed over all at once;
 * - stopped: its liveness lease deleted.
 */
type KeeperState = 'idle' | 'running' | 'draining' | 'leaving' | 'stopped';

export class LeaseKeeper implements BotOwnership {
  private readonly store: LeaseStore;
  private readonly daemonId: string;
  private readonly hooks: OwnershipHooks;
  private readonly clock: Clock;
  private readonly timing: LeaseTiming;
  private readonly view: LeaseView;
  private readonly held = new Map<string, Held>();
  /** Whether the store answered the last renewal (false: NATS unreachable, its requests time out). */
  private storeAnswered = true;
  private readonly claiming = new Set<string>();
  private readonly orphanSince = new Map<string, number>();
  /** Liveness leases of stopped daemons being deleted. */
  private readonly burying = new Set<string>();
  /**
   * Bots handed over whose freeing write went unanswered (NATS unreachable): the bot has left its
   * server, but its record still names this daemon, so nobody claims it. The write is tried again each
   * tick until the store answers, by bot: the record to write and the revision it replaces.
   */
  private readonly unfreed = new Map<string, { record: string; revision: number }>();
  private freeing = false;
  /** Hand-overs waiting for the bot's next owner, by bot. */
  private readonly newOwnerWaits = new Map<string, () => void>();
  private knownBots = new Set<string>();
  /** Bot events that arrive while the bot list is read again, replayed onto the fresh list. */
  private eventsDuringScan: { botId: string; created: boolean }[] | undefined;
  private watch: LeaseWatch | undefined;
  private stopTicking: (() => void) | undefined;
  private session = randomUUID();
  /** The liveness lease's revision; undefined until it is created (again, after it lapsed). */
  private liveRevision: number | undefined;
  /** When the last liveness write that was confirmed was sent. */
  private confirmedAt = Number.NEGATIVE_INFINITY;
  private lastRenewalAt = Number.NEGATIVE_INFINITY;
  private renewing: Promise<void> | undefined;
  private rebalancing = false;
  private drainDone: Promise<void> | undefined;
  /** When a drain hands the rest over all at once (a stop has a few seconds; a drain asked for, no end). */
  private drainUntil = Number.POSITIVE_INFINITY;
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
    await this.renewSoon();
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
    await this.store.delete(botLeaseKey(botId), held.revision);
  }

  drain(): DrainStart {
    if (this.state === 'draining' && this.drainDone)
      return { started: true, bots: this.held.size, done: this.drainDone };
    if (this.state !== 'running' || !this.view.othersLive(this.session, this.clock.now()))
      return { started: false };
    const bots = this.held.size;
    this.drainDone = this.drainBots();
    return { started: true, bots, done: this.drainDone };
  }

  /**
   * Graceful stop. With another daemon live, the bots move to the others one at a time, as a drain does
   * (one asked for before goes on), for `shutdownDrainMs` (the process has a few seconds to stop);
   * whatever is left then is handed over all at once, as it is when no other daemon is live. Then its
   * liveness lease is deleted.
   */
  async handOver(): Promise<void> {
    this.drainUntil = Math.min(this.drainUntil, this.clock.now() + this.timing.shutdownDrainMs);
    if (this.state === 'running' && this.view.othersLive(this.session, this.clock.now()))
      this.drainDone = this.drainBots();
    await this.drainDone;
    if (this.state === 'running' || this.state === 'draining') {
      this.state = 'leaving';
      // Others stop placing bots here before any comes free; the bots leave their servers meanwhile
      // (with NATS unreachable the write takes its full timeout).
      const marked = this.renewSoon();
      await Promise.all([...this.held.keys()].map((botId) => this.handOverBot(botId, marked)));
    }
    if (this.state !== 'stopped') {
      this.state = 'stopped';
      this.stopTicking?.();
      await this.renewing;
      // Its bots are all handed over: nobody needs this session any more.
      if (this.liveRevision !== undefined && this.storeAnswered)
        await this.store.delete(livenessKey(this.daemonId, this.session), this.liveRevision);
    }
    this.watch?.stop();
  }

  private tick(): void {
    const now = this.clock.now();
    if (
      this.liveRevision !== undefined &&
      now - this.confirmedAt >= this.timing.ttlMs - this.timing.safetyMarginMs
    )
      this.lapse('its liveness lease could not be renewed in time');
    if (this.state === 'stopped') return;
    if (now - this.lastRenewalAt >= this.timing.renewIntervalMs) void this.renewSoon();
    if (this.unfreed.size > 0) void this.freeAgain();
    if (this.state !== 'running') return;
    this.buryExpiredSessions(now);
    void this.claimOrphans();
    this.rebalance(now);
    if (now >= this.nextScanAt) void this.rescan();
  }

  private onChange(change: StoredLease): void {
    const now = this.clock.now();
    if (!this.view.apply(change, now)) return;
    const key = parseLeaseKey(change.key);
    if (key?.kind === 'liveness') {
      if (key.session === this.session && change.value === null && this.state !== 'stopped')
        this.lapse('its liveness lease was deleted by a daemon that saw it expire');
      this.planSoon();
      return;
    }
    if (key?.kind !== 'bot') return;
    const record = this.view.lease(key.botId)?.value;
    const held = this.held.get(key.botId);
    if (held && record?.claim !== held.claim) this.lose(key.botId, 'its record was taken or deleted');
    if (record?.owner && record.session !== this.session) this.newOwnerWaits.get(key.botId)?.();
    if (this.view.isOrphan(key.botId, now)) this.planSoon();
  }

  /**
   * Plans once for everything that arrives in one go (a burst of bot events, a dead daemon's bots coming
   * free together), so every daemon plans from the same picture and their plans agree.
   */
  private planSoon(): void {
    if (this.planPending || this.state !== 'running') return;
    this.planPending = true;
    setImmediate(() => {
      this.planPending = false;
      if (this.state === 'running') void this.claimOrphans();
    });
  }

  /** Whether the bots this daemon owns may still run: its liveness lease is surely live. */
  private alive(now: number): boolean {
    return now - this.confirmedAt < this.timing.ttlMs - this.timing.safetyMarginMs;
  }

  /** Renews the liveness lease (creates it for a new session), after a renewal on its way. */
  private renewSoon(): Promise<void> {
    const renewal = (this.renewing ?? Promise.resolve()).then(() => this.renew());
    const current = renewal.finally(() => {
      if (this.renewing === current) this.renewing = undefined;
    });
    this.renewing = current;
    return current;
  }

  private async renew(): Promise<void> {
    const sentAt = this.clock.now();
    this.lastRenewalAt = sentAt;
    const session = this.session;
    const key = livenessKey(this.daemonId, session);
    const value = writeLiveness({
      draining: this.state !== 'running' && this.state !== 'idle',
      active: [...this.held.keys()].filter((botId) => this.hooks.isActive(botId)),
    });
    const revision = this.liveRevision;
    const written =
      revision === undefined
        ? await this.store.create(key, value)
        : await this.store.update(key, value, revision);
    if (session !== this.session) return;
    this.storeAnswered = written.ok || written.error !== 'unavailable';
    if (written.ok) {
      this.liveRevision = written.value;
      this.confirmedAt = sentAt;
      return;
    }
    // Unavailable: tried again next interval, and the deadline stops the bots if that lasts.
    if (written.error === 'unavailable') return;
    // Only this daemon writes its lease: a conflict is its own earlier write that landed though its answer
    // was lost (its send time is unknown, so the deadline stays), or a deletion by a daemon that saw it expire.
    const current = await this.store.get(key);
    if (!current.ok || session !== this.session) return;
    if (current.value?.value) this.liveRevision = Math.max(revision ?? 0, current.value.revision);
    else this.lapse('its liveness lease was deleted by a daemon that saw it expire');
  }

  /** Its liveness lease lapsed: every bot stops, and the daemon starts over under a new session. */
  private lapse(why: string): void {
    const old = livenessKey(this.daemonId, this.session);
    const oldRevision = this.liveRevision;
    this.session = randomUUID();
    this.liveRevision = undefined;
    this.confirmedAt = Number.NEGATIVE_INFINITY;
    this.lastRenewalAt = Number.NEGATIVE_INFINITY;
    for (const botId of [...this.held.keys()]) this.lose(botId, why);
    // Its bots have stopped: others may take them now rather than when the lease is seen to expire.
    if (oldRevision !== undefined) void this.store.delete(old, oldRevision);
  }

  private claimOrphans(): Promise<void> {
    const now = this.clock.now();
    if (this.state !== 'running' || !this.alive(now)) return Promise.resolve();
    const orphans = this.orphans(now);
    for (const botId of this.orphanSince.keys()) if (!orphans.has(botId)) this.orphanSince.delete(botId);
    if (orphans.size === 0) return Promise.resolve();
    for (const botId of orphans) if (!this.orphanSince.has(botId)) this.orphanSince.set(botId, now);

    let load = this.held.size + this.claiming.size;
    // This daemon always counts, with the load it knows exactly (claims on their way included).
    const loads = this.view.liveLoads(now).set(this.session, load);
    const plan = assignOrphans([...orphans], loads);
    const share = fairShare(this.knownBots.size, loads.size);
    const claims: Promise<void>[] = [];
    for (const botId of [...orphans].sort()) {
      const placedHere = plan.get(botId) === this.session;
      const waitedLongEnough = now - this.orphanSince.get(botId)! >= this.timing.claimGraceMs;
      if (!placedHere && !(waitedLongEnough && load <= share)) continue;
      load++;
      claims.push(this.claim(botId));
    }
    return Promise.all(claims).then(() => undefined);
  }

  private orphans(now: number): Set<string> {
    return new Set(
      [...this.knownBots].filter(
        (botId) => !this.held.has(botId) && !this.claiming.has(botId) && this.view.isOrphan(botId, now),
      ),
    );
  }

  private async claim(botId: string): Promise<void> {
    const observed = this.view.lease(botId);
    const previous = this.view.previousOwner(botId);
    const claim = randomUUID();
    const key = botLeaseKey(botId);
    const record = writeBotLease({
      owner: this.daemonId,
      session: this.session,
      claim,
      active: previous?.active ?? false,
    });
    this.claiming.add(botId);
    const session = this.session;
    const claimed = observed
      ? await this.store.update(key, record, observed.revision)
      : await this.store.create(key, record);
    // Unanswered, the claim may still have landed: the store tells, by the claim id it holds now.
    const revision = claimed.ok ? claimed.value : await this.landed(botId, claim);
    this.claiming.delete(botId);
    if (revision === undefined) return;
    if (this.state !== 'running' || !this.knownBots.has(botId) || session !== this.session) {
      // Handed straight back (owner null), so nobody waits for a session that never ran it.
      await this.store.update(
        key,
        writeBotLease({ owner: null, claim, active: previous?.active ?? false }),
        revision,
      );
      return;
    }
    const held: Held = { claim, revision };
    this.held.set(botId, held);
    log.info({ bot: botId, from: observed?.value?.owner ?? null }, 'claimed a bot');
    const owned = await this.hooks.own(botId, previous).catch((error: unknown) => {
      log.warn({ err: error, bot: botId }, 'could not take the bot on');
      return false;
    });
    if (owned || this.held.get(botId) !== held) return;
    // The bot is gone from the database: forget it, or its freed record would be claimed again.
    this.knownBots.delete(botId);
    this.held.delete(botId);
    await this.store.delete(key, held.revision);
  }

  /**
   * After a claim failed or went unanswered: reads the record, so the next plan starts from the truth,
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

  /**
   * While this daemon holds two bots more than the least-loaded live daemon (a daemon joined, or bots
   * were created or deleted unevenly), it hands one over, and the next once that one has a new owner. Idle
   * bots go first: moving them silences nobody. Not while bots are orphans: placement fills the
   * least-loaded daemons with those first.
   */
  private rebalance(now: number): void {
    // Not while a freed record is still unwritten: NATS is not answering, and the next would wait too.
    if (this.rebalancing || !this.alive(now) || this.claiming.size > 0 || this.unfreed.size > 0) return;
    const loads = this.view.liveLoads(now);
    loads.delete(this.session);
    if (loads.size === 0 || this.held.size - Math.min(...loads.values()) < 2) return;
    if ([...this.knownBots].some((botId) => !this.held.has(botId) && this.view.isOrphan(botId, now))) return;
    const [botId] = [...this.held.keys()].sort(
      (a, b) => Number(this.hooks.isActive(a)) - Number(this.hooks.isActive(b)) || a.localeCompare(b),
    );
    if (!botId) return;
    this.rebalancing = true;
    log.info({ bot: botId, held: this.held.size }, 'handing a bot over to even out the load');
    void this.moveOne(botId).finally(() => {
      this.rebalancing = false;
      // The next one goes as soon as this one has its new owner, not at the next tick.
      if (this.state === 'running') this.rebalance(this.clock.now());
    });
  }

  /**
   * Hands the bots over one at a time, each once the one before has a new owner, until `drainUntil`;
   * the rest, if any, are left to the caller.
   */
  private async drainBots(): Promise<void> {
    this.state = 'draining';
    // Placement stops giving this daemon bots before the first one comes free.
    await this.renewSoon();
    log.info({ daemonId: this.daemonId, bots: this.held.size }, 'draining: handing every bot over');
    for (;;) {
      const [botId] = this.held.keys();
      if (!botId || this.state !== 'draining' || this.clock.now() >= this.drainUntil) return;
      await this.moveOne(botId);
    }
  }

  /** Hands one bot over and waits (a while) until another daemon has claimed it. */
  private async moveOne(botId: string): Promise<void> {
    let resolve!: () => void;
    const claimed = new Promise<void>((r) => (resolve = r));
    this.newOwnerWaits.set(botId, resolve);
    const wait = this.clock.every(this.timing.handOverWaitMs, resolve);
    try {
      if (await this.handOverBot(botId, Promise.resolve())) await claimed;
    } finally {
      wait();
      this.newOwnerWaits.delete(botId);
    }
  }

  /**
   * The restart's hand-over of one bot: it saves its queue and position and leaves its server (the
   * record still names this daemon meanwhile, so nobody claims it before it has left), then the record is
   * written with `owner: null` for the next owner. Answers whether the record was freed.
   */
  private async handOverBot(botId: string, markedDraining: Promise<unknown>): Promise<boolean> {
    const held = this.held.get(botId);
    if (!held) return false;
    const active = this.hooks.isActive(botId);
    await this.hooks.release(botId, 'handover');
    await markedDraining;
    if (this.held.get(botId) !== held) return false;
    this.held.delete(botId);
    // Stopping while NATS did not answer the renewal just sent: this write would wait out its timeout
    // too (and the stop's budget with it). The record names this daemon until its liveness lease
    // expires, and then the bot is free as after a crash.
    if (this.state === 'leaving' && !this.storeAnswered) return false;
    const freed = writeBotLease({ owner: null, claim: held.claim, active });
    const result = await this.store.update(botLeaseKey(botId), freed, held.revision);
    if (result.ok) return true;
    if (result.error === 'unavailable' && this.state !== 'leaving') {
      log.warn({ bot: botId }, 'could not hand the bot over yet; trying again while NATS does not answer');
      this.unfreed.set(botId, { record: freed, revision: held.revision });
    } else log.warn({ bot: botId }, 'could not hand the bot over; it is free once this daemon stops');
    return false;
  }

  /** Tries the freeing writes that went unanswered again, one at a time; a conflict means it moved on. */
  private async freeAgain(): Promise<void> {
    if (this.freeing) return;
    this.freeing = true;
    try {
      for (const [botId, { record, revision }] of [...this.unfreed]) {
        const result = await this.store.update(botLeaseKey(botId), record, revision);
        if (!result.ok && result.error === 'unavailable') return;
        this.unfreed.delete(botId);
        if (result.ok) log.info({ bot: botId }, 'handed the bot over after NATS answered again');
      }
    } finally {
      this.freeing = false;
    }
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
   * Deletes the liveness leases that were not renewed within the TTL, each at the revision seen expiring:
   * the deletion is what frees their bots, and it fails if the daemon renewed meanwhile (a view that
   * lagged behind the bucket). It also keeps a daemon starting later from counting the dead as live.
   */
  private buryExpiredSessions(now: number): void {
    for (const { daemonId, session, revision } of this.view.expiredSessions(now)) {
      if (session === this.session || this.burying.has(session)) continue;
      this.burying.add(session);
      void this.store
        .delete(livenessKey(daemonId, session), revision)
        .finally(() => this.burying.delete(session));
    }
  }
}
