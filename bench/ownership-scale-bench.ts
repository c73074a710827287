/**
 * Bot ownership at scale: 10 daemon processes owning 1,000 bots on a real `nats-server -js`, each the
 * real lease keeper with stubbed voice connections (bench/runtime/lease-daemon.ts). It prints
 *   1. the KV writes per second while nothing changes hands (one liveness renewal per daemon every 2 s;
 *      counted from the bucket's stream, every write and deletion), beside what one lease per bot
 *      renewed every 2 s would write;
 *   2. the takeover time after one daemon is killed (SIGKILL): until every bot it had is owned again;
 *   3. the time a daemon that joins takes to get its share (handed over one at a time by each daemon).
 */
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { connect } from 'nats';
import { LEASE_BUCKET } from '../daemon/ownership/jetstream-lease-store';
import { DEFAULT_LEASE_TIMING } from '../daemon/ownership/lease-timing';
import { watchLeaseOwners } from '../testkit/lease-owners';
import { startNatsServer } from '../testkit/nats-server';
import { type RunningService, runEntry } from '../testkit/run-service';

const DAEMONS = 10;
const BOTS = 1000;
const STEADY_MS = 20_000;

const nats = await startNatsServer({ jetstream: true });
const leases = await watchLeaseOwners(nats.url);
const admin = await connect({ servers: nats.url });
const jsm = await admin.jetstreamManager();
const daemons = new Map<string, RunningService>();
const startDaemon = (id: string) =>
  daemons.set(
    id,
    runEntry('bench/runtime/lease-daemon.ts', {
      NATS_URL: nats.url,
      DAEMON_ID: id,
      BOTS: String(BOTS),
      LOG_LEVEL: 'warn',
    }),
  );

const writes = async () => (await jsm.streams.info(`KV_${LEASE_BUCKET}`)).state.last_seq;
const owned = (id: string) => leases.owners().get(id)?.length ?? 0;
const ownedInAll = () => [...leases.owners().values()].reduce((sum, ids) => sum + ids.length, 0);
async function until(check: () => boolean, timeoutMs: number, what: string): Promise<number> {
  const started = performance.now();
  while (!check()) {
    if (performance.now() - started > timeoutMs) throw new Error(`gave up waiting for ${what}`);
    await sleep(20);
  }
  return performance.now() - started;
}
const spread = () => {
  const counts = [...daemons.keys()].map(owned);
  return `${Math.min(...counts)}-${Math.max(...counts)} bots per daemon`;
};

try {
  for (let i = 1; i <= DAEMONS; i++) startDaemon(`d${i}`);
  const placedMs = await until(
    () =>
      leases.liveDaemons().length === DAEMONS &&
      ownedInAll() === BOTS &&
      [...daemons.keys()].every((id) => owned(id) >= BOTS / DAEMONS - 1),
    120_000,
    'every bot placed and spread',
  );
  console.log(
    `${DAEMONS} daemons, ${BOTS} bots (stubbed voice): placed and spread ${Math.round(placedMs)} ms after the start (${spread()})`,
  );

  await sleep(3000);
  const before = await writes();
  await sleep(STEADY_MS);
  const perSecond = ((await writes()) - before) / (STEADY_MS / 1000);
  const perBotLeases =
    BOTS / (DEFAULT_LEASE_TIMING.renewIntervalMs / 1000) +
    DAEMONS / (DEFAULT_LEASE_TIMING.renewIntervalMs / 1000);
  console.log(
    `KV writes while nothing changes hands: ${perSecond.toFixed(1)}/s over ${STEADY_MS / 1000} s (one lease per bot renewed every 2 s, as before, would write ${perBotLeases}/s)`,
  );

  const victim = 'd1';
  const victimBots = leases.owners().get(victim) ?? [];
  const killedAt = performance.now();
  await daemons.get(victim)!.kill();
  daemons.delete(victim);
  await until(
    () =>
      victimBots.every((id) => {
        const owner = leases.ownerOf(id);
        return owner !== undefined && owner !== victim;
      }),
    30_000,
    'the takeover',
  );
  const takeoverMs = performance.now() - killedAt;
  console.log(
    `SIGKILL of ${victim} (${victimBots.length} bots): every one owned again after ${Math.round(takeoverMs)} ms (${spread()})`,
  );

  const joinedAt = performance.now();
  startDaemon('d11');
  await until(() => leases.liveDaemons().includes('d11'), 60_000, 'd11 to start');
  const startedMs = performance.now() - joinedAt;
  const share = Math.floor(BOTS / DAEMONS);
  await until(() => owned('d11') >= share - 1, 60_000, 'd11 to get its share');
  const shareMs = performance.now() - joinedAt;
  await sleep(3000);
  console.log(
    `a daemon that joins (d11): its process beat ${Math.round(startedMs)} ms after it was started and held its share (${share - 1}+ of ${BOTS} bots) ${Math.round(shareMs - startedMs)} ms after that; 3 s later ${owned('d11')} (${spread()})`,
  );
} finally {
  await leases.close();
  await Promise.all([...daemons.values()].map((d) => d.kill()));
  await admin.close();
  await nats.stop();
}
