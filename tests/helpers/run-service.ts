/**
 * Runs the service the way a user does (`make run`) in its own process group, waits until it answers
 * /api/health, and stops the whole group afterwards.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { freePort } from './free-port';

export interface RunningService {
  baseUrl: string;
  output(): string;
  stop(): Promise<void>;
}

export async function runService(
  env: Record<string, string>,
  command = ['make', 'run'],
): Promise<RunningService> {
  const port = await freePort();
  const [cmd, ...args] = command;
  const child = spawn(cmd!, args, {
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info', VITEST: '' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  child.stdout?.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr?.on('data', (c: Buffer) => (output += c.toString()));
  const baseUrl = `http://127.0.0.1:${port}`;
  const service = { baseUrl, output: () => output, stop: () => stopGroup(child) };
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`service exited early (${child.exitCode}):\n${output}`);
    try {
      if ((await fetch(`${baseUrl}/api/health`)).ok) return service;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  await service.stop();
  throw new Error(`service did not answer /api/health within 60 s:\n${output}`);
}

function stopGroup(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || !child.pid) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), 5000);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    process.kill(-child.pid!, 'SIGTERM');
  });
}
