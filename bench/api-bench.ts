/**
 * The per-request cost of the REST API. One process serves the real app (libSQL temp file,
 * in-process bus, the daemon in-process owning BOTS bots that are not connected to a voice server,
 * as `make run` runs them) and, beside it, a bare Hono route; a load client in another process
 * (bench/http-load.ts) drives each target with the same connections and duration:
 *   - bare Hono: `GET /bare` on a one-route Hono app (the ceiling of this machine),
 *   - public: `GET /api/health` (the app's middleware, no authentication),
 *   - service token: `GET /api/bot` authenticated without any database read (the chat service's
 *     token), i.e. what listing the bots costs when authentication is free,
 *   - key: `GET /api/bot` with a member's API key,
 *   - cookie: `GET /api/bot` with the same member's session cookie,
 *   - cookie, light route: `GET /api/session/me` (its handler reads nothing), so the row shows
 *     authentication on top of the app's middleware alone.
 * The member has grants on every bot, so the whole principal is loaded and the list has BOTS
 * entries. Targets run in interleaved rounds and each reports its best round, so background load on
 * the machine colours all of them alike; server CPU per request (this process, the client excluded)
 * is reported beside the rates because it hardly depends on that load. Goal: each authenticated
 * target serves at least half the bare route's requests per second.
 *
 * The app is served as `make run` serves it: without the tests' check of every answer against the
 * OpenAPI document (testkit/checked-answers.ts), which clones and validates each answer and cost more
 * CPU than the request it checked.
 *
 * API_BENCH_PROFILE=<dir> profiles this process during each target's load windows (the inspector's
 * sampling profiler) and writes one `<dir>/<target>.cpuprofile` per target; bench/cpuprofile-summary.ts
 * sums one by file and function (docs/performance.md, "Where the microseconds go").
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { join } from 'node:path';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { MEMBER_SESSION_COOKIE } from '../api/access/sessions';
import { configureLogging } from '../shared/logger';
import { SERVICE_TOKEN_HEADER } from '../shared/service-headers';
import { createKey, createMember, insertBot, setupAdmin } from '../testkit/accounts';
import { startTestApp } from '../testkit/test-app';
import { type LoadResult, loadFromAnotherProcess } from './http-load';

const CONNECTIONS = 50;
const ROUNDS = 3;
const WARMUP_MS = 1000;
const DURATION_MS = 3000;
const GOAL_RATIO = 1 / 2;
/** A realistic few: the bots one installation lists. */
const BOTS = 4;

// One log line per request would bury the figures and measure the terminal.
configureLogging({ level: 'error', pretty: false });

const t = await startTestApp({ checkAnswers: false });
const admin = await setupAdmin(t);
const botIds: string[] = [];
for (let i = 0; i < BOTS; i++) botIds.push(await insertBot(t));
const member = await createMember(t, admin, { capabilities: ['player.control'], bots: botIds });
const rawKey = await createKey(member);
const sessionId = member.jar.get(MEMBER_SESSION_COOKIE);
if (!sessionId) throw new Error('the member login set no session cookie');
const appUrl = await t.listen();

const bare = new Hono().get('/bare', (c) => c.json({ ok: true }));
const bareServer = await new Promise<{ url: string; close(): void }>((resolve) => {
  const server = serve({ fetch: bare.fetch, hostname: '127.0.0.1', port: 0 }, (info) =>
    resolve({ url: `http://127.0.0.1:${info.port}/bare`, close: () => server.close() }),
  );
});

interface Target {
  name: string;
  url: string;
  headers: Record<string, string>;
  authenticated: boolean;
}
const targets: Target[] = [
  { name: 'bare Hono GET /bare', url: bareServer.url, headers: {}, authenticated: false },
  { name: 'public GET /api/health', url: `${appUrl}/api/health`, headers: {}, authenticated: false },
  {
    name: 'GET /api/bot (service token, no DB)',
    url: `${appUrl}/api/bot`,
    headers: { [SERVICE_TOKEN_HEADER]: t.config.serviceToken },
    authenticated: false,
  },
  {
    name: 'GET /api/bot (API key)',
    url: `${appUrl}/api/bot`,
    headers: { authorization: `Bearer ${rawKey}` },
    authenticated: true,
  },
  {
    name: 'GET /api/bot (cookie)',
    url: `${appUrl}/api/bot`,
    headers: { cookie: `${MEMBER_SESSION_COOKIE}=${sessionId}` },
    authenticated: true,
  },
  {
    name: 'GET /api/session/me (cookie)',
    url: `${appUrl}/api/session/me`,
    headers: { cookie: `${MEMBER_SESSION_COOKIE}=${sessionId}` },
    authenticated: true,
  },
];

interface Round extends LoadResult {
  cpuUsPerRequest: number;
}

const profileDir = process.env.API_BENCH_PROFILE;
const inspector = new Session();
if (profileDir) {
  mkdirSync(profileDir, { recursive: true });
  inspector.connect();
  await inspector.post('Profiler.enable');
}
let profileRound = 0;

/** Runs one load window, under the profiler when asked: one file per target and round. */
async function profiled(target: Target, run: () => Promise<LoadResult>): Promise<LoadResult> {
  if (!profileDir) return run();
  await inspector.post('Profiler.start');
  const result = await run();
  const { profile } = await inspector.post('Profiler.stop');
  const file = join(profileDir, `${target.name.replace(/\W+/g, '-')}-${profileRound++}.cpuprofile`);
  writeFileSync(file, JSON.stringify(profile));
  // The window spans the warm-up too, so the requests it served are estimated from the rate.
  const served = Math.round(result.perSecond * ((WARMUP_MS + DURATION_MS) / 1000));
  console.log(`profile: ${file} (about ${served} requests; bench/cpuprofile-summary.ts ${file} ${served})`);
  return result;
}

/** One round of one target: the client's figures and this process's CPU time per request. */
async function measure(target: Target): Promise<Round> {
  const plan = {
    url: target.url,
    headers: target.headers,
    connections: CONNECTIONS,
    warmupMs: WARMUP_MS,
    durationMs: DURATION_MS,
  };
  // The CPU window spans the warm-up too; so does the count it is divided by (an estimate from the rate).
  const cpuBefore = process.cpuUsage();
  const result = await profiled(target, () => loadFromAnotherProcess(plan));
  const cpu = process.cpuUsage(cpuBefore);
  const served = result.perSecond * ((WARMUP_MS + DURATION_MS) / 1000);
  return { ...result, cpuUsPerRequest: (cpu.user + cpu.system) / served };
}

const rounds = new Map<Target, Round[]>(targets.map((target) => [target, []]));
for (let round = 0; round < ROUNDS; round++) {
  for (const target of targets) rounds.get(target)!.push(await measure(target));
}
bareServer.close();
await t.close();

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const best = (list: Round[]) => list.reduce((a, b) => (b.perSecond > a.perSecond ? b : a));
const bareBest = best(rounds.get(targets[0]!)!);
const bareCpu = median(rounds.get(targets[0]!)!.map((r) => r.cpuUsPerRequest));

console.log(
  `GET /api/bot lists ${BOTS} bots (owned by the in-process daemon, not connected to a voice server); ${CONNECTIONS} connections; ${ROUNDS} interleaved rounds of ${DURATION_MS / 1000} s (after ${WARMUP_MS / 1000} s warm-up) per target; best round shown, CPU median`,
);
console.table(
  targets.map((target) => {
    const list = rounds.get(target)!;
    const top = best(list);
    const cpu = median(list.map((r) => r.cpuUsPerRequest));
    return {
      target: target.name,
      'req/s': Math.round(top.perSecond),
      'p50 ms': top.p50Ms.toFixed(2),
      'p99 ms': top.p99Ms.toFixed(2),
      '× bare req/s': (top.perSecond / bareBest.perSecond).toFixed(2),
      'server CPU µs/req': Math.round(cpu),
      '× bare CPU': (cpu / bareCpu).toFixed(1),
      failures: list.reduce((sum, r) => sum + r.failures, 0),
    };
  }),
);
const cpuOf = (index: number) => median(rounds.get(targets[index]!)!.map((r) => r.cpuUsPerRequest));
console.log(
  `authentication's own CPU per request (GET /api/bot minus the service-token row): API key ${Math.round(cpuOf(3) - cpuOf(2))} µs, cookie ${Math.round(cpuOf(4) - cpuOf(2))} µs`,
);
const failed = targets.filter((target) => rounds.get(target)!.some((r) => r.failures > 0));
const belowGoal = targets.filter(
  (target) => target.authenticated && best(rounds.get(target)!).perSecond / bareBest.perSecond < GOAL_RATIO,
);
if (failed.length) console.log(`not every answer was 200: ${failed.map((f) => f.name).join(', ')}`);
console.log(
  belowGoal.length
    ? `below the goal of ${GOAL_RATIO.toFixed(2)} × bare: ${belowGoal.map((b) => b.name).join(', ')}`
    : `every authenticated target serves at least ${GOAL_RATIO.toFixed(2)} × bare`,
);
process.exit(failed.length ? 1 : 0);
