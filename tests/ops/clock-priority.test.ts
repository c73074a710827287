/**
 * The frame clock's thread becomes a real-time one where the system allows it (here: root, in a
 * cgroup with a real-time budget), and the threads it starts afterwards do not inherit that.
 */
import { readFileSync } from 'node:fs';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import type { ThreadScheduling } from '../helpers/clock-priority-probe';

const SCHED_OTHER = 0;
const SCHED_FIFO = 1;
const probeUrl = new URL('../helpers/clock-priority-probe.ts', import.meta.url).href;
const bootstrap = `import('tsx/esm/api').then((tsx) => tsx.tsImport(${JSON.stringify(probeUrl)}, ${JSON.stringify(probeUrl)}));`;

interface ProbeReport {
  realtime: boolean;
  own: ThreadScheduling;
  child: ThreadScheduling;
}

function probe(): Promise<ProbeReport> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(bootstrap, { eval: true });
    worker.once('message', resolve);
    worker.once('error', reject);
  });
}

describe('the frame clock thread', () => {
  it('runs SCHED_FIFO where allowed, and the threads it starts run as ordinary ones', async () => {
    const report = await probe();
    expect(report.own.policy).toBe(report.realtime ? SCHED_FIFO : SCHED_OTHER);
    expect(report.child.policy).toBe(SCHED_OTHER);
    expect(report.child.nice).toBeGreaterThanOrEqual(0);
    // As root in a cgroup with a real-time budget (this project's test machine) the answer must be
    // yes: otherwise the checks above would pass on a refusal.
    if (process.getuid?.() === 0 && cgroupAllowsRealtime()) expect(report.realtime).toBe(true);
  });
});

/** Whether this process's cpu cgroup (v1) gives real-time threads any time; true without one. */
function cgroupAllowsRealtime(): boolean {
  const cpuGroup = readFileSync('/proc/self/cgroup', 'utf8')
    .split('\n')
    .map((line) => line.split(':'))
    .find(([, controllers]) => controllers?.split(',').includes('cpu'))?.[2];
  try {
    return Number(readFileSync(`/sys/fs/cgroup/cpu${cpuGroup ?? ''}/cpu.rt_runtime_us`, 'utf8')) > 0;
  } catch {
    return true;
  }
}
