/**
 * Starts a thread's child processes (track decoders, the cover-art converter, yt-dlp and the other
 * tools) through a launcher process of its own (launcher-process.mjs says why: a start from this
 * process would fork all of it while the thread waits, and the daemon's thread owns the frame clock).
 *
 * `launchProcess()` answers at once with a LaunchedProcess. It says `spawn` once the child runs and
 * `io`, the child's stdin and stdout as one connection, is here; `error` when the child could not
 * start; `stderr` with what the child writes there; and `close`, always last, once the child has
 * exited and everything it wrote to `io` has been read.
 *
 * Each thread has one launcher, started at its first launch and started again after it dies (its
 * children are killed then, by pid). A launcher outlives no thread: the end of its stdin kills its
 * children and ends it.
 */
import { type ChildProcessByStdio, spawn } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import type { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { logger } from '../logger';

const log = logger('exec.launcher');
const LAUNCHER_PATH = fileURLToPath(new URL('./launcher-process.mjs', import.meta.url));

/**
 * A decoder runs seconds ahead of playback and a tool's answer can wait a little; the frame clock
 * cannot. Every child the launcher starts runs at nice 10, so a burst of starts (every bot changing
 * track at once) never makes a tick late; the launcher itself keeps the normal priority, so a start is
 * not put off under load.
 */
const CHILD_NICENESS = 10;

export interface LaunchOptions {
  /** The child leads a process group of its own, so `process.kill(-pid)` also ends what it started. */
  detached?: boolean;
}

/**
 * Not configuration: what a child inherits, as a direct start would pass it, read at each start since
 * it may have changed (tests point PATH and a fake's settings elsewhere).
 */
const inheritedEnvironment = () => process.env;

export interface LaunchError {
  code: string | undefined;
  message: string;
}

interface LaunchedEvents {
  spawn: [];
  error: [LaunchError];
  stderr: [Buffer];
  close: [code: number | null, signal: NodeJS.Signals | null];
}

type LauncherEvent =
  | { id: number; event: 'spawn'; pid: number }
  | { id: number; event: 'error'; code?: string; message: string }
  | { id: number; event: 'stderr'; text: string }
  | { id: number; event: 'exit'; code: number | null; signal: NodeJS.Signals | null };

export class LaunchedProcess extends EventEmitter<LaunchedEvents> {
  pid: number | undefined;
  /** The child's stdin (writes) and stdout (reads); set before `spawn`. */
  io: Socket | undefined;
  /** Set by `kill()`; a kill asked before the start was even requested goes with the request. */
  killRequested = false;
  private exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  private ioEnded = false;
  private spawnSaid = false;
  private closed = false;

  constructor(
    readonly id: number,
    private readonly onKill: (id: number) => void,
  ) {
    super();
  }

  /** True once the child has exited (or never started). */
  get exited(): boolean {
    return this.exit !== undefined;
  }

  /** SIGKILL, now or as soon as it starts. Safe to call again and after the exit. */
  kill(): void {
    if (this.exited) return;
    this.killRequested = true;
    this.onKill(this.id);
  }

  /** @internal The launcher connected the child's end of `io`. */
  connected(io: Socket): void {
    this.io = io;
    // The child's stdout has ended (it exited or is exiting): our writing side goes too, so `io` closes.
    io.once('end', () => io.end());
    io.once('close', () => {
      this.ioEnded = true;
      this.maybeClose();
    });
    this.maybeSaySpawn();
  }

  /** @internal */
  event(message: LauncherEvent): void {
    if (message.event === 'spawn') {
      this.pid = message.pid;
      this.maybeSaySpawn();
    } else if (message.event === 'stderr') this.emit('stderr', Buffer.from(message.text));
    else if (message.event === 'error') {
      this.io?.destroy();
      this.emit('error', { code: message.code, message: message.message });
    } else {
      this.exit = { code: message.code, signal: message.signal };
      // No child ever held `io` (it never started): nothing more will come through it.
      if (this.pid === undefined) this.io?.destroy();
      if (!this.io) this.ioEnded = true;
      this.maybeClose();
    }
  }

  private maybeSaySpawn(): void {
    if (this.spawnSaid || this.pid === undefined || !this.io) return;
    this.spawnSaid = true;
    this.emit('spawn');
  }

  private maybeClose(): void {
    if (this.closed || !this.exit || !this.ioEnded) return;
    this.closed = true;
    this.emit('close', this.exit.code, this.exit.signal);
  }
}

type LauncherChild = ChildProcessByStdio<Writable, Readable, null>;

/** One thread's launcher process and the launches it is running. */
class Launcher {
  private child: LauncherChild | undefined;
  private readonly launches = new Map<number, LaunchedProcess>();
  private nextId = 1;
  private socketDir: string | undefined;

  launch(command: string, args: readonly string[], options: LaunchOptions): LaunchedProcess {
    let requested = false;
    const launched = new LaunchedProcess(this.nextId++, (id) => {
      if (requested) this.send({ op: 'kill', id });
    });
    this.launches.set(launched.id, launched);
    this.holdThreadWhileBusy();
    const socketPath = join(this.directory(), `${launched.id}.sock`);
    // One listening socket per launch: the one connection it takes is that child's, no routing needed.
    const server = createServer({ allowHalfOpen: true }, (io) => {
      server.close();
      launched.connected(io);
    });
    server.once('error', (error) => {
      launched.event({ id: launched.id, event: 'error', message: `launch socket: ${error.message}` });
      launched.event({ id: launched.id, event: 'exit', code: null, signal: null });
      this.forget(launched.id);
    });
    server.listen(socketPath, () => {
      this.send({
        op: 'spawn',
        id: launched.id,
        command,
        args,
        socketPath,
        env: inheritedEnvironment(),
        detached: options.detached ?? false,
      });
      requested = true;
      if (launched.killRequested) this.send({ op: 'kill', id: launched.id });
    });
    launched.once('close', () => server.close());
    return launched;
  }

  /** While a launch has not said `close`, its last events are still to be read from the launcher. */
  private holdThreadWhileBusy(): void {
    const events = this.child?.stdout as unknown as Socket | undefined;
    if (this.launches.size > 0) events?.ref();
    else events?.unref();
  }

  private send(request: object): void {
    this.process().stdin.write(`${JSON.stringify(request)}\n`);
  }

  private process(): LauncherChild {
    if (this.child) return this.child;
    // A plain script: none of this process's loaders (tsx, vitest's) in the launcher.
    const { NODE_OPTIONS: _loaderOptions, ...env } = inheritedEnvironment();
    const child = spawn(process.execPath, [LAUNCHER_PATH, String(CHILD_NICENESS)], {
      stdio: ['pipe', 'pipe', 'inherit'],
      env,
    });
    this.child = child;
    // An idle launcher keeps no thread alive (holdThreadWhileBusy).
    child.unref();
    (child.stdin as unknown as Socket).unref();
    child.stdin.on('error', (error) => log.debug({ err: error }, 'the launcher stopped reading'));
    createInterface({ input: child.stdout }).on('line', (line) => this.onEvent(JSON.parse(line)));
    child.once('exit', (code, signal) => this.onLauncherGone(child, code, signal));
    return child;
  }

  private onEvent(message: LauncherEvent): void {
    const launched = this.launches.get(message.id);
    if (!launched) return;
    launched.event(message);
    if (message.event === 'exit') this.forget(message.id);
  }

  /** Its children are ours to end: none may play on unheard, and their exit codes are lost with it. */
  private onLauncherGone(child: LauncherChild, code: number | null, signal: NodeJS.Signals | null): void {
    if (this.child !== child) return;
    this.child = undefined;
    if (this.launches.size > 0)
      log.error({ code, signal }, 'the process launcher died: the children it started are stopped');
    for (const launched of this.launches.values()) {
      if (launched.pid !== undefined) killQuietly(launched.pid);
      else launched.event({ id: launched.id, event: 'error', message: 'the process launcher died' });
      launched.event({ id: launched.id, event: 'exit', code: null, signal: 'SIGKILL' });
    }
    this.launches.clear();
  }

  private forget(id: number): void {
    this.launches.delete(id);
    this.holdThreadWhileBusy();
  }

  private directory(): string {
    if (!this.socketDir) {
      const dir = mkdtempSync(join(tmpdir(), 'launches-'));
      this.socketDir = dir;
      process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    }
    return this.socketDir;
  }
}

function killQuietly(pid: number): void {
  try {
    process.kill(pid, 'SIGKILL');
  } catch {
    // Already gone.
  }
}

let threadLauncher: Launcher | undefined;

/**
 * Starts this thread's launcher ahead of its first real launch, by launching `true`; resolves once
 * that has run (or could not), so the launcher answers at once from then on. Booting it takes a node
 * process's start (seconds on a loaded machine), which a daemon taking bots over would otherwise add
 * to the silence of the first bots it resumes.
 */
export function warmLauncher(): Promise<void> {
  return new Promise((resolve) => launchProcess('true', []).once('close', () => resolve()));
}

/** Starts `command args` through this thread's launcher. */
export function launchProcess(
  command: string,
  args: readonly string[],
  options: LaunchOptions = {},
): LaunchedProcess {
  threadLauncher ??= new Launcher();
  return threadLauncher.launch(command, args, options);
}
