/**
 * Bot ownership leases against a real `nats-server -js`, on a clock the test moves by hand: claims
 * spread by load, renewal, expiry of a daemon cut off from NATS (it stops its bots before anyone may
 * claim them), compare-and-set conflicts, graceful hand-over, a restart under the same id, deleted
 * bots, and the startup error without JetStream. Every figure is the real timing (lease-timing.ts).
 */

import { connect } from 'nats';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { JetStreamLeaseStore } from '../../daemon/ownership/jetstream-lease-store';
import { botLeaseKey, daemonKey, readBotLease, writeBotLease } from '../../daemon/ownership/lease-records';
import { DEFAULT_LEASE_TIMING } from '../../daemon/ownership/lease-timing';
import { type NatsServerHandle, startNatsServer } from '../../testkit/nats-server';
import { LeaseCluster } from './lease-harness';

const { ttlMs, renewIntervalMs, safetyMarginMs, tickMs } = DEFAULT_LEASE_TIMING;

let nats: NatsServerHandle;
let cluster: LeaseCluster;
beforeAll(async () => {
  nats = await startNatsServer({ jetstream: true });
});
afterAll(async () => {
  await nats?.stop();
});
afterEach(async () => {
  await cluster?.close();
});

const lease = async (botId: string) => {
  const stored = await cluster.store.get(botLeaseKey(botId));
  if (!stored.ok) throw new Error('the lease store did not answer');
  return stored.value;
};
const ownerOf = async (botId: string) => {
  const stored = await lease(botId);
  return stored?.value ? readBotLease(stored.value).owner : undefined;
};
const sorted = (ids: Iterable<string>) => [...ids].sort();

/** Daemon a owns two bots, one of them playing; daemon b runs beside it. */
async function twoBotsOnA() {
  cluster = await LeaseCluster.create(nats.url);
  const [playing, idle] = cluster.addBots(2) as [string, string];
  const a = await cluster.start('a');
  a.active.add(playing);
  const b = await cluster.start('b');
  return { a, b, playing, idle };
}

describe('bot ownership leases', () => {
  it('spreads created bots over the live daemons by load, each bot on exactly one', async () => {
    cluster = await LeaseCluster.create(nats.url);
    const a = await cluster.start('a');
    const b = await cluster.start('b');
    const bots = await cluster.createBots(6);

    expect(a.owned.size).toBe(3);
    expect(b.owned.size).toBe(3);
    expect(sorted([...a.owned, ...b.owned])).toEqual(sorted(bots));
    for (const id of bots) expect(await ownerOf(id)).toBe(a.owned.has(id) ? 'a' : 'b');
  });

  it('renews a live lease, so nobody else claims it however long it runs', async () => {
    cluster = await LeaseCluster.create(nats.url);
    const [bot] = cluster.addBots(1) as [string];
    const a = await cluster.start('a');
    await cluster.start('b');
    const first = (await lease(bot))!.revision;

    await cluster.advance(60_000);

    expect(cluster.owns({ botId: bot }).map((e) => e.daemonId)).toEqual(['a']);
    expect(cluster.releases()).toEqual([]);
    expect(a.owned.has(bot)).toBe(true);
    // One renewal per interval (each a new revision): 30 in a minute.
    const renewals = (await lease(bot))!.revision - first;
    expect(renewals).toBeGreaterThanOrEqual(60_000 / renewIntervalMs - 1);
  });

  it('stops the bots of a daemon cut off from NATS before another may claim them, which it does within the TTL', async () => {
    const { a, b, playing, idle } = await twoBotsOnA();
    // The renewal at 2 s is the last one that gets through; it records that `playing` is playing.
    await cluster.advance(renewIntervalMs + 100);
    const lastRenewalSentAt = renewIntervalMs;
    await cluster.cutOff(a);

    await cluster.advance(ttlMs + 2000);

    const releases = cluster.releases('a');
    const takeovers = cluster.owns({ daemonId: 'b' });
    expect(sorted(releases.map((e) => e.botId))).toEqual(sorted([playing, idle]));
    expect(sorted(takeovers.map((e) => e.botId))).toEqual(sorted([playing, idle]));
    for (const release of releases) {
      expect(release).toMatchObject({ reason: 'lost' });
      expect(release.at).toBeGreaterThanOrEqual(lastRenewalSentAt + ttlMs - safetyMarginMs);
      expect(release.at).toBeLessThanOrEqual(lastRenewalSentAt + ttlMs - safetyMarginMs + tickMs);
    }
    const lastRelease = Math.max(...releases.map((e) => e.seq));
    for (const takeover of takeovers) {
      expect(takeover.seq).toBeGreaterThan(lastRelease);
      expect(takeover.at).toBeGreaterThanOrEqual(lastRenewalSentAt + ttlMs);
      expect(takeover.at).toBeLessThanOrEqual(lastRenewalSentAt + ttlMs + tickMs);
    }
    const previous = (botId: string) => takeovers.find((e) => e.botId === botId)?.previous;
    expect(previous(playing)).toEqual({ active: true });
    expect(previous(idle)).toEqual({ active: false });
    expect(sorted(b.owned)).toEqual(sorted([playing, idle]));
    expect(await ownerOf(playing)).toBe('b');
  });

  it('lets a bot go at once when its lease is overwritten under it', async () => {
    cluster = await LeaseCluster.create(nats.url);
    const [bot] = cluster.addBots(1) as [string];
    const a = await cluster.start('a');
    const current = (await lease(bot))!;
    const intruder = writeBotLease({ owner: 'intruder', claim: 'x', active: false });
    const write = await cluster.store.update(botLeaseKey(bot), intruder, current.revision);
    expect(write.ok).toBe(true);
    const at = cluster.clock.now();

    await cluster.settle();

    expect(a.owned.has(bot)).toBe(false);
    expect(cluster.events.at(-1)).toMatchObject({ kind: 'release', daemonId: 'a', botId: bot, at });
  });

  it('recognises a renewal of its own whose answer was lost, by its claim id, and renews on', async () => {
    cluster = await LeaseCluster.create(nats.url);
    const [bot] = cluster.addBots(1) as [string];
    const a = await cluster.start('a');
    // What a renewal that landed without its answer leaves: a newer revision carrying a's own claim.
    const current = (await lease(bot))!;
    const landed = await cluster.store.update(botLeaseKey(bot), current.value!, current.revision);
    expect(landed.ok).toBe(true);

    await cluster.advance(20_000);

    expect(cluster.releases()).toEqual([]);
    expect(a.owned.has(bot)).toBe(true);
    expect((await lease(bot))!.revision).toBeGreaterThan(current.revision + 5);
    expect(cluster.conflicts()).toBe(1);
  });

  it('lets exactly one of two daemons win a bot both claim at once (compare-and-set)', async () => {
    cluster = await LeaseCluster.create(nats.url);
    // No grace: the daemon the placement does not pick claims too, so a bot created while both hold
    // the same load is claimed by both at once.
    const racing = { ...DEFAULT_LEASE_TIMING, claimGraceMs: 0 };
    const daemons = [await cluster.start('a', racing), await cluster.start('b', racing)];
    const rounds = 6;
    for (let round = 0; round < rounds; round++) {
      const [bot] = (await cluster.createBots(1)) as [string];
      expect(cluster.conflicts()).toBe(round + 1);
      expect(cluster.owns({ botId: bot })).toHaveLength(1);
      cluster.bots.delete(bot);
      for (const daemon of daemons) await daemon.keeper.botRemoved(bot);
      await cluster.settle();
    }
    expect(cluster.releases()).toEqual([]);
  });

  it('gives every bot exactly one owner when two daemons start at once', async () => {
    cluster = await LeaseCluster.create(nats.url);
    const bots = cluster.addBots(8);
    await Promise.all([cluster.start('a'), cluster.start('b')]);
    await cluster.advance(DEFAULT_LEASE_TIMING.claimGraceMs + tickMs);

    for (const id of bots) expect(cluster.owns({ botId: id })).toHaveLength(1);
    expect(cluster.releases()).toEqual([]);
  });

  it('hands the bots of a daemon that stops gracefully to another at once, saying which were playing', async () => {
    const { a, b, playing, idle } = await twoBotsOnA();
    const at = cluster.clock.now();

    await cluster.stop(a);

    expect(sorted(b.owned)).toEqual(sorted([playing, idle]));
    const takeovers = cluster.owns({ daemonId: 'b' });
    expect(takeovers.every((e) => e.at === at)).toBe(true);
    expect(takeovers.find((e) => e.botId === playing)).toMatchObject({ previous: { active: true } });
    expect(takeovers.find((e) => e.botId === idle)).toMatchObject({ previous: { active: false } });
    const handedOver = cluster.releases('a');
    expect(handedOver.map((e) => e.reason)).toEqual(['handover', 'handover']);
    expect(Math.min(...takeovers.map((e) => e.seq))).toBeGreaterThan(
      Math.max(...handedOver.map((e) => e.seq)),
    );
    const heartbeat = await cluster.store.get(daemonKey('a'));
    expect(heartbeat.ok && heartbeat.value?.value).toBeNull();
  });

  it('deletes the heartbeat of a dead daemon, so a daemon started later does not wait for it', async () => {
    cluster = await LeaseCluster.create(nats.url);
    const bots = cluster.addBots(4);
    const a = await cluster.start('a');
    const b = await cluster.start('b');
    await cluster.cutOff(a);
    await cluster.advance(ttlMs + tickMs);
    expect(sorted(b.owned)).toEqual(sorted(bots));
    const heartbeat = await cluster.store.get(daemonKey('a'));
    expect(heartbeat.ok && heartbeat.value?.value).toBeNull();

    const c = await cluster.start('c');
    const at = cluster.clock.now();
    await cluster.stop(b);

    expect(sorted(c.owned)).toEqual(sorted(bots));
    expect(cluster.owns({ daemonId: 'c' }).every((e) => e.at === at)).toBe(true);
  });

  it('makes a daemon restarted under the same id wait for its predecessor’s lease to expire', async () => {
    cluster = await LeaseCluster.create(nats.url);
    const [bot] = cluster.addBots(1) as [string];
    const before = await cluster.start('a');
    await cluster.cutOff(before);
    const restarted = await cluster.start('a');
    expect(restarted.owned.size).toBe(0);

    await cluster.advance(ttlMs + tickMs);

    const owns = cluster.owns({ botId: bot });
    expect(owns).toHaveLength(2);
    expect(owns[1]!.at).toBeGreaterThanOrEqual(ttlMs);
    expect(restarted.owned.has(bot)).toBe(true);
  });

  it('deletes the lease of a deleted bot, and collects one whose owner was away when it went', async () => {
    cluster = await LeaseCluster.create(nats.url);
    const [deleted, deletedWhileAway] = cluster.addBots(2) as [string, string];
    const a = await cluster.start('a');
    cluster.bots.delete(deleted);
    await a.keeper.botRemoved(deleted);
    expect((await lease(deleted))?.value).toBeNull();

    const b = await cluster.start('b');
    await cluster.cutOff(a);
    cluster.bots.delete(deletedWhileAway);
    // b heard nothing: its lease expires, and b's next look at the bot list finds the bot gone.
    await cluster.advance(DEFAULT_LEASE_TIMING.rescanMs + 1000);

    expect((await lease(deletedWhileAway))?.value).toBeNull();
    expect(b.owned.size).toBe(0);
  });

  it('refuses to start on a NATS server without JetStream, naming the fix', async () => {
    const plain = await startNatsServer();
    const connection = await connect({ servers: plain.url });
    try {
      await expect(JetStreamLeaseStore.open(connection)).rejects.toThrow(/nats-server with -js/);
    } finally {
      await connection.close();
      await plain.stop();
    }
  });
});
