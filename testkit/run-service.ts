/**
 * Runs the service the way a user does (`make run`, or one process's own `node` entry) in its own
 * process group, waits until it answers /api/health, and stops (or kills, a crash) the whole group; and
 * prepares the DATA_DIR such processes share. Its clients' answers are checked against the OpenAPI
 * document (checked-answers.ts).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ApiClient, createApiClient } from '../openapi/client';
import { migrateDb, openDb } from '../shared/db/client';
import { bots } from '../shared/db/schema';
import { checkedFetch } from './checked-answers';
import { type CookieJar, sendingCookies } from './cookie-jar';
import { freePort } from './free-port';

export interface RunningService {
  baseUrl: string;
  /** The process group's id. */
  pid: number;
  output(): string;
  /** Sends a signal to the whole group, as systemd, Ctrl-C or `kill -TERM -<pgid>` do. */
  signal(signal: NodeJS.Signals): void;
  /** How the started process (the group's leader) ended. */
  exited: Promise<ProcessEnd>;
  stop(): Promise<void>;
  /** SIGKILL to the whole group: a crash, no shutdown code runs. */
  kill(): Promise<void>;
}

export interface ProcessEnd {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export async function runService(
  env: Record<string, string>,
  command = ['make', 'run'],
): Promise<RunningService> {
  // A given PORT is kept: a process restarted in place answers where the proxy expects it.
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const [cmd, ...args] = command;
  const child = spawn(cmd!, args, {
    env: { ...process.env, LOG_LEVEL: 'info', ...env, PORT: String(port), HOST: '127.0.0.1', VITEST: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  const output = collectOutput(child);
  const baseUrl = `http://127.0.0.1:${port}`;
  const service = { ...groupControls(child), baseUrl, output };
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`service exited early (${child.exitCode}):\n${output()}`);
    try {
      if ((await fetch(`${baseUrl}/api/health`)).ok) return service;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  await service.stop();
  throw new Error(`service did not answer /api/health within 60 s:\n${output()}`);
}

/** A typed client of a running service (a browser when it has a cookie jar), its answers checked. */
export function serviceClient(
  service: RunningService,
  options: { jar?: CookieJar; headers?: Record<string, string> } = {},
): ApiClient {
  return createApiClient({
    baseUrl: service.baseUrl,
    headers: options.headers ?? {},
    fetch: sendingCookies(options.jar, checkedFetch),
  });
}

/**
 * Starts the daemon's own entry (`daemon/main.ts`) as the systemd unit does. It has no HTTP port: it is
 * ready when the api gets an answer through it.
 */
export function runDaemon(env: Record<string, string>): RunningService {
  return runEntry('daemon/main.ts', env);
}

/**
 * Starts a TypeScript entry in its own process group: one node process with tsx as its loader, so a
 * SIGTERM reaches the entry alone and its shutdown is not cut short (the `tsx` command kills a child
 * that is slow to acknowledge a signal).
 */
export function runEntry(entry: string, env: Record<string, string>, args: string[] = []): RunningService {
  const child = spawn('node', ['--import', 'tsx', entry, ...args], {
    env: { ...process.env, ...env, VITEST: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  return { ...groupControls(child), baseUrl: '', output: collectOutput(child) };
}

function groupControls(child: ChildProcess) {
  const exited = new Promise<ProcessEnd>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return {
    pid: child.pid!,
    signal: (signal: NodeJS.Signals) => process.kill(-child.pid!, signal),
    exited,
    stop: () => stopGroup(child),
    kill: () => killGroup(child),
  };
}

function collectOutput(child: ChildProcess): () => string {
  let output = '';
  child.stdout?.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (output += c.toString()));
  return () => output;
}

/**
 * A fresh DATA_DIR (named `<prefix>…` in the temp folder) whose database is migrated and holds these
 * bot rows. Migrated up front, so processes started on it together do not race to apply the migrations.
 */
export async function preparedDataDir(
  prefix: string,
  botRows: (typeof bots.$inferInsert)[] = [],
): Promise<string> {
  const dataDir = mkdtempSync(join(tmpdir(), prefix));
  const db = openDb({ url: `file:${join(dataDir, 'bot.db')}` });
  await migrateDb(db);
  if (botRows.length > 0) await db.insert(bots).values(botRows);
  db.$client.close();
  return dataDir;
}

function killGroup(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || !child.pid) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    process.kill(-child.pid!, 'SIGKILL');
  });
}

/**
 * SIGTERM to the group, then SIGKILL to whatever of it is left after STOP_GRACE_MS. The group, not the
 * leader: a wrapper (npx, make) can exit at once and leave the entry it started still shutting down.
 */
async function stopGroup(child: ChildProcess): Promise<void> {
  if (!child.pid || groupGone(child.pid)) return;
  process.kill(-child.pid, 'SIGTERM');
  if (await groupGoneWithin(child.pid, STOP_GRACE_MS)) return;
  process.kill(-child.pid, 'SIGKILL');
  await groupGoneWithin(child.pid, 1000);
}

const STOP_GRACE_MS = 10_000;

async function groupGoneWithin(pgid: number, ms: number): Promise<boolean> {
  const deadline = Date.now() + ms;
  while (!groupGone(pgid)) {
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 50));
  }
  return true;
}

function groupGone(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return false;
  } catch {
    return true;
  }
}
