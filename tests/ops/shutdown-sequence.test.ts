/**
 * The shutdown sequence itself (shared/shutdown.ts) when steps misbehave, in real processes
 * (tests/ops/fixtures/misbehaving-shutdown.ts): a step that never ends is abandoned at its budget and
 * the later steps still run, exit 1; a main thread stuck past the deadline is killed by the watchdog
 * thread before 10 s; a copy of the signal relayed a moment later is not a second signal; a stdout
 * whose reader stopped reading, then went away, does not hold the exit.
 */
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { SHUTDOWN_DEADLINE_MS } from '../../shared/shutdown';
import { type RunningService, runEntry } from '../../testkit/run-service';
import { shutdownLog } from './shutdown-log';

const started: RunningService[] = [];
afterAll(() => Promise.all(started.map((child) => child.kill())));

async function misbehaving(mode: 'hang' | 'stuck'): Promise<RunningService> {
  const child = runEntry('tests/ops/fixtures/misbehaving-shutdown.ts', { LOG_LEVEL: 'info' }, [mode]);
  started.push(child);
  await vi.waitFor(
    () => {
      if (!child.output().includes('ready')) throw new Error(`not ready:\n${child.output()}`);
    },
    { timeout: 20_000, interval: 50 },
  );
  return child;
}

describe('the shutdown sequence', () => {
  it('abandons a step at its budget, runs the rest, exits 1; ignores a relayed copy of the signal', async () => {
    const child = await misbehaving('hang');
    const sent = performance.now();
    child.signal('SIGTERM');
    await sleep(50);
    child.signal('SIGTERM'); // what make or npm relay a moment after the group's own signal
    const end = await child.exited;
    const ms = performance.now() - sent;

    expect(end).toEqual({ code: 1, signal: null });
    // The http step's budget is 2 s.
    expect(ms).toBeGreaterThanOrEqual(2000);
    expect(ms).toBeLessThan(5000);
    expect(shutdownLog(child)).toEqual(
      [
        'shutting down',
        'http: step overran its budget: abandoned',
        'bots: bots saved and disconnected',
        'bus: bus closed',
        'database: database closed',
        'stopped, with work left unfinished',
      ].sort(),
    );
  });

  it('kills a process whose main thread is stuck past the deadline, within 10 s', async () => {
    const child = await misbehaving('stuck');
    const sent = performance.now();
    child.signal('SIGTERM');
    const end = await child.exited;
    const ms = performance.now() - sent;

    expect(end).toEqual({ code: null, signal: 'SIGKILL' });
    expect(ms).toBeGreaterThan(SHUTDOWN_DEADLINE_MS);
    expect(ms).toBeLessThan(10_000);
    expect(child.output()).toContain('shutdown deadline passed with the main thread stuck');
  });

  it('exits when its stdout is no longer read, then closed, with log lines still waiting', async () => {
    // stdout is a pipe this test never reads: it fills, and 5 MB of lines wait behind it.
    const child = spawn('node', ['--import', 'tsx', 'tests/ops/fixtures/misbehaving-shutdown.ts', 'flood'], {
      env: { ...process.env, LOG_LEVEL: 'info', VITEST: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.once('exit', (code, signal) => resolve({ code, signal })),
    );
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    try {
      await vi.waitFor(() => expect(stderr).toContain('ready'), { timeout: 20_000, interval: 50 });
      const sent = performance.now();
      child.kill('SIGTERM');
      await sleep(1000);
      child.stdout.destroy(); // the reader goes away, as a supervisor or a test runner can
      const end = await exited;

      // The shutdown's own steps are fine; the lines left for stdout are dropped rather than waited for.
      expect(end).toEqual({ code: 0, signal: null });
      expect(performance.now() - sent).toBeLessThan(SHUTDOWN_DEADLINE_MS);
    } finally {
      child.kill('SIGKILL');
    }
  });
});
