/**
 * Bot ownership against a real `nats-server -js`, on a clock the test moves by hand: claims spread by
 * load, liveness renewal (and no write per bot while bots keep their owner), expiry of a daemon cut off
 * from NATS (it stops its bots before anyone may claim them), compare-and-set conflicts, graceful
 * hand-over, rebalancing when a daemon joins, draining, a restart under the same id, deleted bots, and
 * the startup error without JetStream. Every figure is the real timing (lease-timing.ts).
 */

import { connect } from 'nats';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { JetStreamLeaseStore } from '../../daemon/ownership/jetstream-lease-store';
import { botLeaseKey, readBotLease, writeBotLease } from '../../daemon/ownership/lease-records';
import { DEFAULT_LEASE_TIMING } from '../../daemon/ownership/lease-timing';
import { type NatsServerHandle, startNatsServer } from '../../testkit/nats-server';
import { LeaseCluster, type ReleaseEvent } from './lease-harness';

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

/** Daemon a owns two bots, one of them playing; daemon b beside it owns two more (no load to even out). */
async function twoBotsOnA() {
  cluster = await LeaseCluster.create(nats.url);
  const [playing, idle] = cluster.addBots(2) as [string, string];
  const a = await cluster.start('a');
  a.active.add(playing);
  const b = await cluster.start('b');
  const others = await cluster.createBots(2);
  expect(sorted(b.owned)).toEqual(sorted(others));
  return { a, b, playing, idle, others };
}

/** Daemons a, b and c with two of six bots each, once placement and rebalancing have settled. */
async function threeDaemonsTwoBotsEach() {
  cluster = await LeaseCluster.create(nats.url);
  const bots = cluster.addBots(6);
  const a = await cluster.start('a');
  const b = await cluster.start('b');
  const c = await cluster.start('c');
  await cluster.advance(20_000);
  expect([a.owned.size, b.owned.size, c.owned.size]).toEqual([2, 2, 2]);
  return { bots, a, b, c };
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

  it('renews each daemon’s liveness lease and never rewrites a bot’s record while it keeps its owner', async () => {
    cluster = await LeaseCluster.create(nats.url);
    const [bot] = cluster.addBots(1) as [string];
    const a = await cluster.start('a');
    await cluster.start('b');
    const record = (await lease(bot))!.revision;
    const [liveness] = await cluster.livenessKeys('a');
    const first = (await cluster.store.get(liveness!)).ok;
    expect(first).toBe(true);
    const before = await cluster.writes();

    await cluster.advance(60_000);

    expect(cluster.owns({ botId: bot }).map((e) => e.daemonId)).toEqual(['a']);
    expect(cluster.releases()).toEqual([]);
    expect(a.owned.has(bot)).toBe(true);
    expect((await lease(bot))!.revision).toBe(record);
    // One renewal per daemon per interval: 30 each in a minute, and nothing else.
    const writes = (await cluster.writes()) - before;
    expect(writes).toBeGreaterThanOrEqual(2 * (60_000 / renewIntervalMs - 1));
    expect(writes).toBeLessThanOrEqual(2 * (60_000 / renewIntervalMs + 1));
  });

  it('writes as much with 20 bots as with 2 while they keep their owners: lease traffic grows with daemons', async () => {
    const writesOverAMinute = async (bots: number) => {
      cluster = await LeaseCluster.create(nats.url);
      cluster.addBots(bots);
      await cluster.start('a');
      await cluster.start('b');
      // b joined after a took every bot: they are evened out first, then nothing changes hands.
      await cluster.advance(30_000);
      const before = await cluster.writes();
      await cluster.advance(60_000);
      const writes = (await cluster.writes()) - before;
      await cluster.close();
      return writes;
    };
    const few = await writesOverAMinute(2);
    const many = await writesOverAMinute(20);
    expect(Math.abs(many - few)).toBeLessThanOrEqual(2);
    expect(many).toBeLessThanOrEqual(2 * (60_000 / renewIntervalMs + 1));
  });

  it('stops the bots of a daemon cut off from NATS before another may claim them, which it does within the TTL', async () => {
    const { a, b, playing, idle } = await twoBotsOnA();
    // The renewal at 2 s is the last one that gets through; it records that `playing` is playing.
    await cluster.advance(renewIntervalMs + 100);
    const lastRenewalSentAt = renewIntervalMs;
    await cluster.cutOff(a);

    await cluster.advance(ttlMs + 2000);

    const releases = cluster.releases('a');
    const takeovers = cluster.owns({ daemonId: 'b' }).filter((e) => e.botId === playing || e.botId === idle);
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
    expect(b.owned.has(playing) && b.owned.has(idle)).toBe(true);
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

  it('recognises a liveness renewal of its own whose answer was lost and renews on', async () => {
    cluster = await LeaseCluster.create(nats.url);
    const [bot] = cluster.addBots(1) as [string];
    const a = await cluster.start('a');
    // What a renewal that landed without its answer leaves: a newer revision of a's own lease.
    const [liveness] = await cluster.livenessKeys('a');
    const current = await cluster.store.get(liveness!);
    if (!current.ok || !current.value?.value) throw new Error('no liveness lease');
    const landed = await cluster.store.update(liveness!, current.value.value, current.value.revision);
    expect(landed.ok).toBe(true);

    await cluster.advance(20_000);

    expect(cluster.releases()).toEqual([]);
    expect(a.owned.has(bot)).toBe(true);
    const renewed = await cluster.store.get(liveness!);
    expect(renewed.ok && renewed.value!.revision).toBeGreaterThan(current.value.revision + 5);
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
    const [a, b] = await Promise.all([cluster.start('a'), cluster.start('b')]);
    await cluster.advance(DEFAULT_LEASE_TIMING.claimGraceMs + tickMs);

    // Evening out may move a bot, but only by a hand-over: let go first, then taken on by the other.
    for (const id of bots) {
      const events = cluster.events.filter((e) => e.botId === id).map((e) => e.kind);
      expect(events.join(' ')).toMatch(/^own( release own)*$/);
    }
    expect(cluster.releases().every((e) => e.reason === 'handover')).toBe(true);
    expect(sorted([...a.owned, ...b.owned])).toEqual(sorted(bots));
  });

  it('hands the bots of a daemon that stops gracefully to another at once, one at a time, saying which were playing', async () => {
    const { a, b, playing, idle, others } = await twoBotsOnA();
    const at = cluster.clock.now();

    await cluster.stop(a);

    expect(sorted(b.owned)).toEqual(sorted([playing, idle, ...others]));
    const takeovers = cluster.owns({ daemonId: 'b' }).filter((e) => e.botId === playing || e.botId === idle);
    expect(takeovers.every((e) => e.at === at)).toBe(true);
    expect(takeovers.find((e) => e.botId === playing)).toMatchObject({ previous: { active: true } });
    expect(takeovers.find((e) => e.botId === idle)).toMatchObject({ previous: { active: false } });
    const handedOver = cluster.releases('a');
    expect(handedOver.map((e) => e.reason)).toEqual(['handover', 'handover']);
    // One at a time, in the bucket's own order: each bot is freed, then taken on by b, and the next
    // freed only then. (The hooks' order can differ: a sees b's claim before b has its answer.)
    const [first, second] = handedOver as [ReleaseEvent, ReleaseEvent];
    const revisionOf = (botId: string, owner: string | null) =>
      cluster.botRecordWrites.find((w) => w.botId === botId && w.owner === owner)?.revision ?? -1;
    const order = [
      revisionOf(first.botId, null),
      revisionOf(first.botId, 'b'),
      revisionOf(second.botId, null),
      revisionOf(second.botId, 'b'),
    ];
    expect(order.every((revision) => revision > 0)).toBe(true);
    expect(order).toEqual([...order].sort((x, y) => x - y));
    expect(await cluster.livenessKeys('a')).toEqual([]);
  });

  it('hands every bot over at once when no other daemon is live, as a lone daemon always stopped', async () => {
    cluster = await LeaseCluster.create(nats.url);
    const bots = cluster.addBots(3);
    const a = await cluster.start('a');

    await cluster.stop(a);

    expect(cluster.releases('a').map((e) => e.reason)).toEqual(['handover', 'handover', 'handover']);
    for (const id of bots) expect(await ownerOf(id)).toBeNull();
    expect(await cluster.livenessKeys('a')).toEqual([]);
    const b = await cluster.start('b');
    expect(sorted(b.owned)).toEqual(sorted(bots));
  });

  it('gives a daemon that joins its fair share, handed over one by one, idle bots first', async () => {
    cluster = await LeaseCluster.create(nats.url);
    const bots = cluster.addBots(10);
    const a = await cluster.start('a');
    const playing = bots.slice(0, 4);
    for (const id of playing) a.active.add(id);
    const joinedAt = cluster.clock.now();
    const b = await cluster.start('b');

    await cluster.advance(30_000);

    expect(a.owned.size).toBe(5);
    expect(b.owned.size).toBe(5);
    const moves = cluster.releases('a');
    expect(moves.every((e) => e.reason === 'handover')).toBe(true);
    expect(sorted(moves.map((e) => e.botId))).toEqual(sorted(b.owned));
    // Idle bots move first: only one that plays had to.
    expect(moves.filter((e) => playing.includes(e.botId))).toHaveLength(0);
    for (const move of moves) {
      const taken = cluster.owns({ daemonId: 'b', botId: move.botId })[0]!;
      expect(taken.seq).toBeGreaterThan(move.seq);
      expect(taken.previous).toEqual({ active: false });
    }
    // One at a time, in the bucket's own order: a bot is freed only once the one freed before has its
    // new owner, or (the keeper's fallback when a claim is slow, as on a loaded machine where NATS
    // answers late) once it has waited handOverWaitMs for it. The hooks' order can differ from the
    // bucket's: a sees b's claim in its watch before b has its answer.
    const releasedAt = new Map(moves.map((e) => [e.botId, e.at]));
    let waitingFor: string | undefined;
    let freed = 0;
    for (const write of cluster.botRecordWrites) {
      if (write.owner === null) {
        if (waitingFor !== undefined)
          expect(
            releasedAt.get(write.botId)! - releasedAt.get(waitingFor)!,
            `${write.botId} freed while ${waitingFor} had no owner`,
          ).toBeGreaterThanOrEqual(DEFAULT_LEASE_TIMING.handOverWaitMs);
        waitingFor = write.botId;
        freed++;
      } else if (write.botId === waitingFor && write.owner === 'b') waitingFor = undefined;
    }
    expect(freed).toBe(moves.length);
    expect(Math.max(...moves.map((e) => e.at)) - joinedAt).toBeLessThan(30_000);
    expect(cluster.releases('b')).toEqual([]);
  });

  it('moves the bots of a daemon that plays to a joiner with the flag that reconnects them', async () => {
    cluster = await LeaseCluster.create(nats.url);
    const bots = cluster.addBots(4);
    const a = await cluster.start('a');
    for (const id of bots) a.active.add(id);
    const b = await cluster.start('b');

    await cluster.advance(10_000);

    expect(b.owned.size).toBe(2);
    for (const id of b.owned)
      expect(cluster.owns({ daemonId: 'b', botId: id })[0]!.previous).toEqual({ active: true });
  });

  it('drains a daemon on request: its bots go to the others one at a time and none come back', async () => {
    const { bots, a, b, c } = await threeDaemonsTwoBotsEach();
    const drainedBots = [...a.owned];
    const movedBefore = cluster.releases('a').length;

    const drain = a.keeper.drain();
    expect(drain).toMatchObject({ started: true, bots: 2 });
    if (!drain.started) return;
    await drain.done;
    await cluster.settle();

    expect(a.owned.size).toBe(0);
    expect(sorted([...b.owned, ...c.owned])).toEqual(sorted(bots));
    expect(
      cluster
        .releases('a')
        .slice(movedBefore)
        .map((e) => e.botId),
    ).toEqual(drainedBots);
    // Draining, it is not given any back (not by placement, not by rebalancing).
    await cluster.advance(20_000);
    expect(a.owned.size).toBe(0);
    expect(b.owned.size + c.owned.size).toBe(6);
  });

  it('hands a bot over once NATS answers again when the write freeing its record went unanswered', async () => {
    const { bots, a, b, c } = await threeDaemonsTwoBotsEach();
    const [first] = [...a.owned] as [string];
    a.store.unansweredBotWrites = 1;

    const drain = a.keeper.drain();
    if (!drain.started) throw new Error('the drain did not start');
    await drain.done;
    await cluster.settle();
    // The first bot left its server, but its record still names a: nobody may claim it yet.
    expect(cluster.releases('a').map((e) => e.botId)).toContain(first);
    expect(await ownerOf(first)).toBe('a');

    await cluster.advance(2 * tickMs);
    expect(a.owned.size).toBe(0);
    expect(sorted([...b.owned, ...c.owned])).toEqual(sorted(bots));
    expect(await ownerOf(first)).not.toBe('a');
  });

  it('refuses to drain the only daemon', async () => {
    cluster = await LeaseCluster.create(nats.url);
    cluster.addBots(2);
    const a = await cluster.start('a');
    expect(a.keeper.drain()).toEqual({ started: false });
    expect(a.owned.size).toBe(2);
  });

  it('deletes the liveness lease of a dead daemon, so a daemon started later does not wait for it', async () => {
    cluster = await LeaseCluster.create(nats.url);
    const bots = cluster.addBots(4);
    const a = await cluster.start('a');
    const b = await cluster.start('b');
    await cluster.cutOff(a);
    await cluster.advance(ttlMs + tickMs);
    expect(sorted(b.owned)).toEqual(sorted(bots));
    expect(await cluster.livenessKeys('a')).toEqual([]);

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
