/**
 * Starts a real nats-server (Debian package) on a loopback port for a test, and stops it, or crashes it
 * and restarts it on the same port (the fault suites). With `jetstream`, the server runs JetStream
 * (`-js`) in a temp store folder kept across a restart and removed on stop: what daemons need for
 * their ownership leases.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './free-port';

export interface NatsServerHandle {
  url: string;
  port: number;
  stop(): Promise<void>;
  /** Kills the server (SIGKILL: a crash) and keeps its port and JetStream store for `restart`. */
  crash(): Promise<void>;
  /** Starts the server again on the same port and store, after `crash`. */
  restart(): Promise<void>;
}

export async function startNatsServer({ jetstream = false } = {}): Promise<NatsServerHandle> {
  const port = await freePort();
  const storeDir = jetstream ? mkdtempSync(join(tmpdir(), 'nats-js-')) : undefined;
  const run = async () => {
    const child = spawn(
      'nats-server',
      ['-a', '127.0.0.1', '-p', String(port), ...(storeDir ? ['-js', '-sd', storeDir] : [])],
      { stdio: ['ignore', 'ignore', 'pipe'] },
    );
    await waitForReady(child);
    return child;
  };
  let child = await run();
  return {
    url: `nats://127.0.0.1:${port}`,
    port,
    async stop() {
      await stopProcess(child);
      if (storeDir) rmSync(storeDir, { recursive: true, force: true });
    },
    crash: () => stopProcess(child),
    async restart() {
      child = await run();
    },
  };
}

function waitForReady(child: ChildProcess): Promise<void> {
  return new Promise((resolve, reject) => {
    let log = '';
    const timer = setTimeout(() => reject(new Error(`nats-server did not start:\n${log}`)), 10_000);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(new Error(`cannot run nats-server (${error.message}); install the nats-server package`));
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      log += chunk.toString();
      if (log.includes('Server is ready')) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
}

function stopProcess(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });
}
