/**
 * Starts a real nats-server (Debian package) on a loopback port for a test, and stops it.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { freePort } from './free-port';

export interface NatsServerHandle {
  url: string;
  port: number;
  stop(): Promise<void>;
}

export async function startNatsServer(): Promise<NatsServerHandle> {
  const port = await freePort();
  const child = spawn('nats-server', ['-a', '127.0.0.1', '-p', String(port)], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  await waitForReady(child);
  return {
    url: `nats://127.0.0.1:${port}`,
    port,
    stop: () => stopProcess(child),
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
