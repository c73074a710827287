/**
 * The one shutdown of every process entry (main.ts, api/main.ts, daemon/main.ts). On the first SIGTERM
 * or SIGINT the process's steps run in a fixed order, each within its own budget, all within
 * SHUTDOWN_DEADLINE_MS: a step still running when its budget is spent is abandoned (left unfinished)
 * and the next one starts. Then the process exits: 0 when every step finished in time, 1 when one
 * failed or had to be cut.
 *
 * A signal to the process group (systemd, Ctrl-C, `kill -TERM -<pgid>`) reaches this process directly
 * and again, a moment later, relayed by whatever started it (make, npm, the tsx command); the same
 * signal within RELAYED_COPY_MS is such a copy. Any other signal during the shutdown is an operator who
 * will not wait: the process exits at once, with 128 + the signal's number.
 */
import { constants } from 'node:os';
import { performance } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import { logger, markExiting } from './logger';
import type { Backends } from './process';
import { settleWithin } from './settle-within';

/** The steps end by then, leaving the process time to exit within the 10 s promised to operators. */
export const SHUTDOWN_DEADLINE_MS = 8500;
/** When the watchdog thread kills a process whose main thread is stuck past the deadline. */
const WATCHDOG_MS = 9000;
const RELAYED_COPY_MS = 300;

/** What a process runs; each entry passes the parts it has. */
export interface ProcessParts {
  /** Stops the api's HTTP server and WebSocket gateway (api/server.ts). */
  http?: () => Promise<void>;
  /** Saves the daemon's bots (or hands them over) and takes them off their voice servers. */
  bots?: () => Promise<void>;
  backends: Backends;
}

interface Step {
  name: string;
  budgetMs: number;
  /** What the log says once the step is done. */
  done: string;
  run: () => unknown;
}

/**
 * The steps in order, with budgets that add up to the deadline:
 * - http: requests still running get HTTP_GRACE_MS (1.5 s) before their connections are cut;
 * - bots: in parallel per bot, the queue snapshot (a write waits up to 3 s on a locked database), then
 *   the goodbye to the voice server (at most 1.5 s); scaled out, the lease writes (each gives up after
 *   1.5 s when NATS is unreachable);
 * - bus and database: closing their connections (the database's thread ends after its last statements).
 */
function stepsOf({ http, bots, backends }: ProcessParts): Step[] {
  return [
    ...(http
      ? [{ name: 'http', budgetMs: 2000, done: 'stopped serving HTTP and WebSockets', run: http }]
      : []),
    ...(bots ? [{ name: 'bots', budgetMs: 5000, done: 'bots saved and disconnected', run: bots }] : []),
    { name: 'bus', budgetMs: 1000, done: 'bus closed', run: () => backends.bus.close() },
    // The database thread ends after the statements already sent and the WAL checkpoint of its close:
    // over 500 ms on a loaded machine, where a cut step made a drained daemon exit 1 (and systemd's
    // Restart=on-failure would start it again).
    { name: 'database', budgetMs: 1500, done: 'database closed', run: () => backends.db.$client.close() },
  ];
}

export function onShutdown(parts: ProcessParts): void {
  const log = logger('shutdown');
  let first: { signal: NodeJS.Signals; at: number } | undefined;
  const onSignal = (signal: NodeJS.Signals) => {
    const now = performance.now();
    if (!first) {
      first = { signal, at: now };
      void shutDown(stepsOf(parts), signal).then(exit);
      return;
    }
    if (signal === first.signal && now - first.at < RELAYED_COPY_MS) return;
    log.warn({ signal }, 'second signal: exiting now, the shutdown left unfinished');
    exit(128 + constants.signals[signal]);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
}

function exit(code: number): never {
  markExiting();
  process.exit(code);
}

async function shutDown(steps: Step[], signal: NodeJS.Signals): Promise<number> {
  const log = logger('shutdown');
  const started = performance.now();
  startWatchdog();
  log.info({ signal, deadlineMs: SHUTDOWN_DEADLINE_MS }, 'shutting down');
  let clean = true;
  for (const step of steps) {
    const budgetMs = Math.min(step.budgetMs, SHUTDOWN_DEADLINE_MS - (performance.now() - started));
    const stepStarted = performance.now();
    const outcome = await settleWithin(Promise.resolve().then(step.run), budgetMs);
    const ms = Math.round(performance.now() - stepStarted);
    if (outcome.kind === 'done') log.info({ step: step.name, ms }, step.done);
    else if (outcome.kind === 'failed') log.warn({ step: step.name, ms, err: outcome.error }, 'step failed');
    else log.warn({ step: step.name, budgetMs: Math.round(budgetMs) }, 'step overran its budget: abandoned');
    clean &&= outcome.kind === 'done';
  }
  const ms = Math.round(performance.now() - started);
  if (clean) log.info({ ms }, 'stopped');
  else log.warn({ ms }, 'stopped, with work left unfinished');
  return clean ? 0 : 1;
}

/**
 * Timers on the main thread cannot fire while it waits synchronously, as the local libSQL client does
 * for another process's write lock (up to 3 s per statement). A worker thread's timer can: past the
 * deadline it writes one log line straight to stderr and kills the process (SIGKILL, non-zero like any
 * cut shutdown). Unreferenced, it never keeps the process alive; a normal exit ends it.
 */
const WATCHDOG_SOURCE = `
const { workerData } = require('node:worker_threads');
const { writeSync } = require('node:fs');
setTimeout(() => {
  const msg = 'shutdown deadline passed with the main thread stuck: killing the process';
  try {
    writeSync(2, JSON.stringify({ level: 50, time: Date.now(), pid: workerData.pid, name: 'shutdown', msg }) + '\\n');
  } catch {
    // stderr gone or full (its reader went away): the kill matters more than the line.
  }
  process.kill(workerData.pid, 'SIGKILL');
}, workerData.killAt - Date.now());
`;

function startWatchdog(): void {
  // The time to kill is fixed now: the thread's own start-up counts against it. No execArgv: it needs
  // no TypeScript loader.
  new Worker(WATCHDOG_SOURCE, {
    eval: true,
    execArgv: [],
    workerData: { killAt: Date.now() + WATCHDOG_MS, pid: process.pid },
  }).unref();
}
