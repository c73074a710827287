/**
 * The scaled-out layout on this machine: a real `nats-server -js`, two api processes and two daemons
 * (their own `node` entries) on one libSQL file.
 *   1. REST throughput: `GET /api/bot` with an API key (authentication, the bot list, and a status
 *      from each bot's daemon over NATS) through one api process, then through both at once, with the
 *      same total connections; requests/s, p50/p99 and the api processes' CPU per request.
 *   2. Ownership: the bots each daemon holds after they were created through the api (placed by
 *      load), after one daemon is killed (SIGKILL: its leases expire and the other takes over), and
 *      after the survivor stops gracefully next to a restarted daemon (an immediate hand-over), with
 *      the time each move took.
 * On two cores the second api process competes with everything else for the same CPU, so the ratio
 * of the two rows says more about this machine than about the design; CPU per request is the figure to
 * compare across machines.
 */
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { createApiClient } from '../openapi/client';
import { PASSWORD } from '../testkit/accounts';
import { CookieJar, sendingCookies } from '../testkit/cookie-jar';
import { watchLeaseOwners } from '../testkit/lease-owners';
import { startNatsServer } from '../testkit/nats-server';
import { preparedDataDir, type RunningService, runDaemon, runService } from '../testkit/run-service';
import { type LoadResult, loadFromAnotherProcess } from './http-load';

const BOTS = 8;
const CONNECTIONS = 40;
const WARMUP_MS = 1000;
const DURATION_MS = 4000;
/** Linux reports process CPU in clock ticks of 1/100 s. */
const CLOCK_TICKS_PER_S = 100;
const ROUNDS = 2;

type Row = Awaited<ReturnType<typeof throughput>>;

const nats = await startNatsServer({ jetstream: true });
const dataDir = await preparedDataDir('tsmb-scale-bench-');
const env = { DATA_DIR: dataDir, NATS_URL: nats.url, LOG_LEVEL: 'warn' };
const daemons = new Map<string, RunningService>([
  ['d1', runDaemon({ ...env, DAEMON_ID: 'd1' })],
  ['d2', runDaemon({ ...env, DAEMON_ID: 'd2' })],
]);
const apis = await Promise.all([0, 1].map(() => runService(env, ['node', '--import', 'tsx', 'api/main.ts'])));
const leases = await watchLeaseOwners(nats.url);

async function until(check: () => boolean, timeoutMs: number, what: string): Promise<number> {
  const started = performance.now();
  while (!check()) {
    if (performance.now() - started > timeoutMs) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
  return performance.now() - started;
}

/** CPU seconds used so far by every process in the group. */
function groupCpuSeconds(pgid: number): number {
  let ticks = 0;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // Fields after the parenthesised command name: state, ppid, pgrp, …, utime (14th), stime (15th).
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      if (Number(fields[2]) === pgid) ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // the process ended while the folder was read
    }
  }
  return ticks / CLOCK_TICKS_PER_S;
}

const bots = () =>
  [...daemons.keys()].map((id) => `${id}: ${leases.owners().get(id)?.length ?? 0}`).join(', ');

try {
  await until(() => leases.liveDaemons().length === 2, 60_000, 'both daemons');
  const jar = new CookieJar();
  const admin = createApiClient({ baseUrl: apis[0]!.baseUrl, fetch: sendingCookies(jar, fetch) });
  const setup = await admin.POST('/api/session/setup', { body: { username: 'admin', password: PASSWORD } });
  if (setup.response.status !== 201) throw new Error('setup failed');
  for (let i = 0; i < BOTS; i++) {
    const created = await admin.POST('/api/bot', {
      body: { name: `Bench ${i}`, nickname: `Bench${i}`, serverAddress: '127.0.0.1' },
    });
    if (created.response.status !== 201) throw new Error('could not create a bot');
  }
  const key = (await admin.POST('/api/keys', { body: { name: 'bench' } })).data?.rawKey;
  if (!key) throw new Error('could not create an API key');
  await until(() => countOwned() === BOTS, 10_000, 'every bot placed');

  // A first pass over both processes warms their JIT; then the two layouts take turns, best round shown.
  await throughput(apis, key);
  const rounds = { one: [] as Row[], two: [] as Row[] };
  for (let round = 0; round < ROUNDS; round++) {
    rounds.one.push(await throughput(apis.slice(0, 1), key));
    rounds.two.push(await throughput(apis, key));
  }
  const best = (rows: Row[]) => rows.reduce((a, b) => (b['req/s'] > a['req/s'] ? b : a));
  console.log(
    `GET /api/bot with an API key: ${BOTS} bots on two daemons (not connected to a voice server), ${CONNECTIONS} connections in all, ${ROUNDS} interleaved rounds of ${DURATION_MS / 1000} s after ${WARMUP_MS / 1000} s warm-up, best round shown`,
  );
  console.table([best(rounds.one), best(rounds.two)]);

  console.log(`\nbots per daemon, created through the api: ${bots()}`);
  const killedAt = performance.now();
  await daemons.get('d1')!.kill();
  await until(() => (leases.owners().get('d2')?.length ?? 0) === BOTS, 20_000, 'the failover');
  console.log(
    `after d1 was killed (SIGKILL): ${bots()}; taken over in ${Math.round(performance.now() - killedAt)} ms`,
  );

  daemons.set('d3', runDaemon({ ...env, DAEMON_ID: 'd3' }));
  daemons.delete('d1');
  await until(() => leases.liveDaemons().includes('d3'), 60_000, 'd3 to start');
  const stoppedAt = performance.now();
  await daemons.get('d2')!.stop();
  await until(() => (leases.owners().get('d3')?.length ?? 0) === BOTS, 20_000, 'the hand-over');
  console.log(
    `after d2 stopped gracefully next to a new d3: ${bots()}; handed over in ${Math.round(performance.now() - stoppedAt)} ms (SIGTERM to the last bot owned)`,
  );
} finally {
  await leases.close();
  await Promise.all([...apis, ...daemons.values()].map((p) => p.stop()));
  await nats.stop();
  rmSync(dataDir, { recursive: true, force: true });
}

function countOwned(): number {
  return [...leases.owners().values()].reduce((sum, ids) => sum + ids.length, 0);
}

/** Drives `GET /api/bot` on the given api processes at once, the connections split between them. */
async function throughput(targets: RunningService[], key: string) {
  const cpuBefore = apis.map((api) => groupCpuSeconds(api.pid));
  const results: LoadResult[] = await Promise.all(
    targets.map((api) =>
      loadFromAnotherProcess({
        url: `${api.baseUrl}/api/bot`,
        headers: { authorization: `Bearer ${key}` },
        connections: CONNECTIONS / targets.length,
        warmupMs: WARMUP_MS,
        durationMs: DURATION_MS,
      }),
    ),
  );
  const cpuSeconds = apis.reduce((sum, api, i) => sum + groupCpuSeconds(api.pid) - cpuBefore[i]!, 0);
  const perSecond = results.reduce((sum, r) => sum + r.perSecond, 0);
  const served = perSecond * ((WARMUP_MS + DURATION_MS) / 1000);
  return {
    'api processes': targets.length,
    'req/s': Math.round(perSecond),
    'p50 ms (worst)': Math.max(...results.map((r) => r.p50Ms)).toFixed(2),
    'p99 ms (worst)': Math.max(...results.map((r) => r.p99Ms)).toFixed(2),
    'api CPU µs/req': Math.round((cpuSeconds * 1e6) / served),
    failures: results.reduce((sum, r) => sum + r.failures, 0),
  };
}
