/**
 * Daemons reduced to their lease keepers, for the lease test: each has its own NATS connection (closing
 * it cuts that daemon off), the real JetStream store, and hooks that record what it was told to own and
 * release, stamped with the injected clock. `settle` waits until every write has landed and every
 * watcher has seen it, so a check after `advance` sees what the daemons did at that time.
 */
import { randomUUID } from 'node:crypto';
import { connect, type JetStreamManager, type NatsConnection } from 'nats';
import type { OwnershipHooks, PreviousOwner, ReleaseReason } from '../../daemon/ownership/bot-ownership';
import { JetStreamLeaseStore } from '../../daemon/ownership/jetstream-lease-store';
import { LeaseKeeper } from '../../daemon/ownership/lease-keeper';
import { parseLeaseKey, readBotLease } from '../../daemon/ownership/lease-records';
import type { LeaseStore, StoredLease } from '../../daemon/ownership/lease-store';
import { DEFAULT_LEASE_TIMING, type LeaseTiming } from '../../daemon/ownership/lease-timing';
import { err, type Result } from '../../shared/result';
import { ManualClock } from './manual-clock';

interface Stamped {
  /** Order across every daemon. */
  seq: number;
  /** The injected clock's time. */
  at: number;
  daemonId: string;
  botId: string;
}
export type OwnEvent = Stamped & { kind: 'own'; previous: PreviousOwner | undefined };
export type ReleaseEvent = Stamped & { kind: 'release'; reason: ReleaseReason };
export type OwnershipEvent = OwnEvent | ReleaseEvent;

/** The real store, counting requests on their way and the newest revision its watch delivered. */
class TrackedStore implements LeaseStore {
  pending = 0;
  seenRevision = 0;
  conflicts = 0;
  /** The next this many writes of a bot's record go unanswered, as when NATS does not answer in time. */
  unansweredBotWrites = 0;

  constructor(private readonly inner: LeaseStore) {}

  watch(onChange: (change: StoredLease) => void) {
    return this.inner.watch((change) => {
      this.seenRevision = Math.max(this.seenRevision, change.revision);
      onChange(change);
    });
  }
  get(key: string) {
    return this.track(this.inner.get(key));
  }
  create(key: string, value: string) {
    return this.track(this.inner.create(key, value));
  }
  update(key: string, value: string, revision: number) {
    if (this.unansweredBotWrites > 0 && parseLeaseKey(key)?.kind === 'bot') {
      this.unansweredBotWrites--;
      return Promise.resolve(err('unavailable' as const));
    }
    return this.track(this.inner.update(key, value, revision));
  }
  put(key: string, value: string) {
    return this.track(this.inner.put(key, value));
  }
  delete(key: string, revision?: number) {
    return this.track(this.inner.delete(key, revision));
  }

  private async track<T extends Result<unknown, string>>(request: Promise<T>): Promise<T> {
    this.pending++;
    try {
      const result = await request;
      if (!result.ok && result.error === 'conflict') this.conflicts++;
      return result;
    } finally {
      this.pending--;
    }
  }
}

export interface TestDaemon {
  id: string;
  keeper: LeaseKeeper;
  /** Bots it runs now. */
  owned: Set<string>;
  /** Bots it reports as in a voice session. */
  active: Set<string>;
  connection: NatsConnection;
  store: TrackedStore;
  /** Cut off from NATS, or stopped: its watch has stopped following the bucket. */
  gone: boolean;
}

export class LeaseCluster {
  readonly clock = new ManualClock();
  /** The database's bot list, shared by every daemon. */
  readonly bots = new Set<string>();
  readonly events: OwnershipEvent[] = [];
  readonly daemons: TestDaemon[] = [];
  private seq = 0;

  private constructor(
    private readonly url: string,
    readonly bucket: string,
    private readonly admin: NatsConnection,
    private readonly jsm: JetStreamManager,
    /** A store outside every daemon, for the test's own reads and writes. */
    readonly store: LeaseStore,
  ) {}

  static async create(url: string): Promise<LeaseCluster> {
    const bucket = `leases-${randomUUID().slice(0, 8)}`;
    const admin = await connect({ servers: url });
    const store = await JetStreamLeaseStore.open(admin, { bucket });
    const cluster = new LeaseCluster(url, bucket, admin, await admin.jetstreamManager(), store);
    await store.watch((change) => {
      const key = parseLeaseKey(change.key);
      if (key?.kind === 'bot' && change.value !== null)
        cluster.botRecordWrites.push({
          revision: change.revision,
          botId: key.botId,
          owner: readBotLease(change.value).owner,
        });
    });
    return cluster;
  }

  /** The bots' ownership records as the bucket took them (its watch is in its own order): whom each names. */
  readonly botRecordWrites: { revision: number; botId: string; owner: string | null }[] = [];

  addBots(count: number): string[] {
    const ids = Array.from({ length: count }, () => randomUUID());
    for (const id of ids) this.bots.add(id);
    return ids;
  }

  /** Starts a daemon; resolves once it owns what it won at start. */
  async start(id: string, timing: LeaseTiming = DEFAULT_LEASE_TIMING): Promise<TestDaemon> {
    const connection = await connect({ servers: this.url });
    const store = new TrackedStore(await JetStreamLeaseStore.open(connection, { bucket: this.bucket }));
    const owned = new Set<string>();
    const active = new Set<string>();
    const hooks: OwnershipHooks = {
      listBots: async () => [...this.bots],
      own: async (botId, previous) => {
        if (!this.bots.has(botId)) return false;
        owned.add(botId);
        this.events.push({
          seq: this.seq++,
          at: this.clock.now(),
          daemonId: id,
          kind: 'own',
          botId,
          previous,
        });
        return true;
      },
      release: async (botId, reason) => {
        owned.delete(botId);
        active.delete(botId);
        this.events.push({
          seq: this.seq++,
          at: this.clock.now(),
          daemonId: id,
          kind: 'release',
          botId,
          reason,
        });
      },
      isActive: (botId) => active.has(botId),
    };
    const keeper = new LeaseKeeper({ store, daemonId: id, hooks, clock: this.clock, timing });
    const daemon: TestDaemon = { id, keeper, owned, active, connection, store, gone: false };
    this.daemons.push(daemon);
    await keeper.start();
    await this.settle();
    return daemon;
  }

  /** Bots created through the api at once: in the database, and announced to every daemon. */
  async createBots(count: number): Promise<string[]> {
    const ids = this.addBots(count);
    for (const daemon of this.daemons) for (const id of ids) daemon.keeper.botCreated(id);
    await this.settle();
    return ids;
  }

  /** Write conflicts the daemons met (claims that lost a race, renewals of a taken lease). */
  conflicts(): number {
    return this.daemons.reduce((sum, d) => sum + d.store.conflicts, 0);
  }

  /** Cuts a daemon off from NATS (its connection closes); it keeps running on the clock. */
  async cutOff(daemon: TestDaemon): Promise<void> {
    daemon.gone = true;
    await daemon.connection.close();
  }

  /** Stops a daemon gracefully: it hands its bots over. */
  async stop(daemon: TestDaemon): Promise<void> {
    await daemon.keeper.handOver();
    daemon.gone = true;
    await this.settle();
  }

  /** Moves the clock in 100 ms steps, letting the daemons finish what each step started. */
  async advance(ms: number): Promise<void> {
    for (let moved = 0; moved < ms; moved += 100) {
      this.clock.advance(Math.min(100, ms - moved));
      await this.settle();
    }
  }

  /** Waits until no request is on its way and every connected watcher has seen the bucket's last write. */
  async settle(): Promise<void> {
    for (let calm = 0; calm < 3; ) {
      await new Promise((resolve) => setImmediate(resolve));
      const live = this.daemons.filter((d) => !d.gone).map((d) => d.store);
      const last = (await this.jsm.streams.info(`KV_${this.bucket}`)).state.last_seq;
      const quiet = live.every((s) => s.pending === 0 && s.seenRevision >= last);
      calm = quiet ? calm + 1 : 0;
      if (!quiet) await new Promise((resolve) => setTimeout(resolve, 2));
    }
  }

  /** The liveness leases of a daemon now in the bucket (not deleted): its key per running session. */
  async livenessKeys(daemonId: string): Promise<string[]> {
    const kv = await this.admin.jetstream().views.kv(this.bucket);
    const keys: string[] = [];
    for await (const key of await kv.keys(`daemon.${daemonId}.>`)) keys.push(key);
    return keys;
  }

  /** Every write the bucket has taken so far (renewals, claims, hand-overs, deletions). */
  async writes(): Promise<number> {
    return (await this.jsm.streams.info(`KV_${this.bucket}`)).state.last_seq;
  }

  /** Bots taken on, by one daemon or of one bot. */
  owns({ daemonId, botId }: { daemonId?: string; botId?: string }): OwnEvent[] {
    return this.events.filter(
      (e): e is OwnEvent =>
        e.kind === 'own' && (!daemonId || e.daemonId === daemonId) && (!botId || e.botId === botId),
    );
  }

  /** Bots let go, by one daemon or all. */
  releases(daemonId?: string): ReleaseEvent[] {
    return this.events.filter(
      (e): e is ReleaseEvent => e.kind === 'release' && (!daemonId || e.daemonId === daemonId),
    );
  }

  async close(): Promise<void> {
    if (this.admin.isClosed()) return;
    for (const daemon of this.daemons) {
      await daemon.keeper.handOver();
      if (!daemon.connection.isClosed()) await daemon.connection.close();
    }
    await this.jsm.streams.delete(`KV_${this.bucket}`);
    await this.admin.close();
  }
}
